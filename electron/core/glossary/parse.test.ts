import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../ingest/parse/markdown';
import { isGlossaryPage, keysOf, parseGlossary } from './parse';
import { GLOSSARY_BY_FRONT_MATTER, GLOSSARY_ZH } from './testing/fixtures';

describe('glossary pages', () => {
  it.each([
    ['术语表.md', {}, true],
    ['docs/词汇表.txt', {}, true],
    ['a/b/Glossary.docx', {}, true],
    ['GLOSSARY', {}, true],
    ['glossary-old.md', {}, false],
    ['notes.md', { sift: 'glossary' }, true],
    ['notes.md', { sift: 'Glossary ' }, true],
    ['notes.md', { sift: 'notes' }, false],
    ['notes.md', {}, false],
  ])('%s with front matter %j is a glossary: %s', (relPath, metadata, expected) => {
    expect(isGlossaryPage(relPath, metadata)).toBe(expected);
  });
});

describe('parseGlossary', () => {
  const entries = parseGlossary(GLOSSARY_ZH);

  it('reads all three forms, in order, with their aliases', () => {
    expect(entries.map((e) => [e.term, e.aliases])).toEqual([
      ['Chunk', ['块']],
      ['MMR', []],
      ['RRF', ['倒数排名融合']],
      ['向量检索', []],
      ['BM25', ['Okapi BM25', '词频排序']],
      ['知识库', []],
      ['HyDE', []],
    ]);
  });

  it('gives each entry the exact span of its term and definition in the text', () => {
    const spans = entries.map((e) => GLOSSARY_ZH.slice(e.start, e.end));
    expect(spans[0]).toBe('Chunk (块)\n: A span of a page that is indexed on its own, with exact offsets.');
    expect(spans[1]).toBe('MMR\n: Maximal Marginal Relevance: picks passages that are relevant but not alike.\n  It trades relevance against novelty with λ = 0.5.');
    expect(spans[2]).toBe('| RRF / 倒数排名融合 | Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。 |');
    expect(spans[4]).toBe('**BM25** (Okapi BM25, 词频排序): the keyword ranking function of the FTS5 index.');
    expect(spans[5]).toBe('- **知识库**：一组文件夹及其索引，一个 SQLite 文件。');
  });

  it('keeps the definition as written', () => {
    expect(entries[1]!.definition).toBe('Maximal Marginal Relevance: picks passages that are relevant but not alike. It trades relevance against novelty with λ = 0.5.');
    expect(entries[3]!.definition).toBe('按嵌入向量的距离找最相近的片段。');
    expect(entries[6]!.definition).toBe('Hypothetical Document Embeddings, a made-up passage used as a vector probe.');
  });

  it('skips the header row of a table, with or without a divider row', () => {
    const html = 'Term | Definition\nEmbedding | A vector of a text.\n';
    expect(parseGlossary(html).map((e) => e.term)).toEqual(['Embedding']);
    expect(parseGlossary('| Word | Gloss |\n|---|:-:|\n| a b | c |').map((e) => [e.term, e.definition])).toEqual([['a b', 'c']]);
  });

  it('reads nothing from code blocks, three-column tables or bold words without a colon', () => {
    const text = '```\n**Code**: not an entry\n```\n\n| a | b | c |\n\n**Just bold** words here.\n\nA line\nand another\n';
    expect(parseGlossary(text)).toEqual([]);
  });

  it('reads a definition separated from its term by a blank line, and several definitions of one term', () => {
    const text = 'Term\n\n: first meaning\n: second meaning\n\nNext paragraph.';
    expect(parseGlossary(text)).toEqual([{ term: 'Term', aliases: [], definition: 'first meaning\nsecond meaning', start: 0, end: 38 }]);
  });

  it('reads a page with front matter from its canonical text (the front matter cut)', () => {
    const page = parseMarkdown(GLOSSARY_BY_FRONT_MATTER);
    expect(isGlossaryPage('ops.md', page.metadata)).toBe(true);
    const [runbook] = parseGlossary(page.text);
    expect(page.text.slice(runbook!.start, runbook!.end)).toBe('**Runbook**: the steps to follow when an alert fires.');
  });
});

describe('keysOf', () => {
  it('normalises the term and aliases: NFKC, case folded, whitespace collapsed, each once', () => {
    expect(keysOf({ term: 'ＲＲＦ', aliases: ['Reciprocal  Rank\tFusion', 'rrf', '倒数排名融合'] })).toEqual(['rrf', 'reciprocal rank fusion', '倒数排名融合']);
  });
});

describe('parseGlossary of pages without Markdown (HTML, Word, PDF)', () => {
  const text = 'Glossary\n\nRRF (倒数排名融合): Reciprocal Rank Fusion.\nEmbedding： a vector of a text.\nMean time to recovery: how long a fix takes.\n\nNote that the list is short: read it all.\nSee https://example.com/x for more.';

  it('reads plain Term: definition lines there, and only short terms without sentence punctuation', () => {
    expect(parseGlossary(text, 'docx').map((e) => [e.term, e.aliases, e.definition, text.slice(e.start, e.end)])).toEqual([
      ['RRF', ['倒数排名融合'], 'Reciprocal Rank Fusion.', 'RRF (倒数排名融合): Reciprocal Rank Fusion.'],
      ['Embedding', [], 'a vector of a text.', 'Embedding： a vector of a text.'],
      ['Mean time to recovery', [], 'how long a fix takes.', 'Mean time to recovery: how long a fix takes.'],
    ]);
  });

  it('leaves plain lines alone in Markdown and plain text, where bold shows', () => {
    expect(parseGlossary(text, 'markdown')).toEqual([]);
    expect(parseGlossary(text, 'text')).toEqual([]);
  });
});
