/**
 * A glossary fixture for tests: a Chinese-named glossary page with entries in all three forms
 * (definition list, two-column table, bold lines) and aliases of both kinds, a page that is a
 * glossary by its front matter, and an ordinary page that only looks like one.
 */

/** The glossary page `术语表.md`: definition list, table and bold lines, with aliases. */
export const GLOSSARY_ZH = [
  '# 术语表',
  '',
  '## 定义列表',
  '',
  'Chunk (块)',
  ': A span of a page that is indexed on its own, with exact offsets.',
  '',
  'MMR',
  ': Maximal Marginal Relevance: picks passages that are relevant but not alike.',
  '  It trades relevance against novelty with λ = 0.5.',
  '',
  '## 表格',
  '',
  '| 术语 | 定义 |',
  '| --- | --- |',
  '| RRF / 倒数排名融合 | Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。 |',
  '| 向量检索 | 按嵌入向量的距离找最相近的片段。 |',
  '',
  '## 加粗',
  '',
  '**BM25** (Okapi BM25, 词频排序): the keyword ranking function of the FTS5 index.',
  '- **知识库**：一组文件夹及其索引，一个 SQLite 文件。',
  '**HyDE:** Hypothetical Document Embeddings, a made-up passage used as a vector probe.',
  '',
].join('\n');

/** A page that is a glossary by its front matter (`sift: glossary`), under another name. */
export const GLOSSARY_BY_FRONT_MATTER = [
  '---',
  'sift: glossary',
  'title: Ops words',
  '---',
  '',
  '**Runbook**: the steps to follow when an alert fires.',
  '',
].join('\n');

/** An ordinary page with a bold line: not a glossary, so nothing of it is an entry. */
export const NOT_A_GLOSSARY = '# Notes\n\n**Runbook**: my own notes on runbooks, not a definition.\n';
