/** A real knowledge base's glossary: written at ingest, looked up through the contract, kept in step with its files. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDocx } from '../ingest/parse/fixtures';
import { call, makeKb, openCore, writeFiles } from '../ingest/testing/fixtures';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { GLOSSARY_BY_FRONT_MATTER, GLOSSARY_ZH, NOT_A_GLOSSARY } from './testing/fixtures';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

const HTML_GLOSSARY = '<html><body><table><tr><th>Term</th><th>Definition</th></tr>'
  + '<tr><td>Embedding / 嵌入</td><td>A vector that stands for a text.</td></tr></table></body></html>';

async function glossaryKb() {
  const root = tempDir();
  writeFiles(root, {
    'docs/术语表.md': GLOSSARY_ZH,
    'ops.md': GLOSSARY_BY_FRONT_MATTER,
    'notes.md': NOT_A_GLOSSARY,
    'web/glossary.html': HTML_GLOSSARY,
    // Word has no `**`: its glossary lines are plain `Term: definition`.
    'word/词汇表.docx': await buildDocx([{ text: 'Vector words', heading: 1 }, { text: 'HNSW (分层可导航小世界图): a graph index for nearest neighbours.' }]),
  });
  const sift = openCore(tempDir());
  open.push(sift);
  const kb = await makeKb(sift, 'Words', [root]);
  await sift.ingest(kb);
  return { sift, kb, root };
}

describe('the glossary of a knowledge base', () => {
  it('holds the entries of every glossary page, each a passage of its page with its exact span', async () => {
    const { sift, kb } = await glossaryKb();
    const entries = await call(sift, 'glossary.list', { kb });
    expect(entries.map((e) => [e.term, e.passage.pagePath])).toEqual([
      ['BM25', 'wiki/docs/术语表.md'],
      ['Chunk', 'wiki/docs/术语表.md'],
      ['Embedding', 'wiki/web/glossary.html'],
      ['HNSW', 'wiki/word/词汇表.docx'],
      ['HyDE', 'wiki/docs/术语表.md'],
      ['MMR', 'wiki/docs/术语表.md'],
      ['RRF', 'wiki/docs/术语表.md'],
      ['Runbook', 'wiki/ops.md'],
      ['向量检索', 'wiki/docs/术语表.md'],
      ['知识库', 'wiki/docs/术语表.md'],
    ]);
    for (const e of entries) {
      expect(e.passage.hitReason).toBe('glossary');
      const page = await call(sift, 'pages.get', { kb, path: e.passage.pagePath });
      expect(page.text.slice(e.passage.start, e.passage.end)).toBe(e.passage.text);
      // The evidence id opens the same span, as for any cited passage.
      const evidence = await call(sift, 'evidence.get', { kb, evidenceId: e.passage.evidenceId, window: 0 });
      expect(evidence.text).toBe(e.passage.text);
    }
    const embedding = entries.find((e) => e.term === 'Embedding')!;
    expect(embedding).toMatchObject({ aliases: ['嵌入'], definition: 'A vector that stands for a text.' });
    expect(embedding.passage.text).toBe('Embedding / 嵌入 | A vector that stands for a text.');
    const hnsw = entries.find((e) => e.term === 'HNSW')!;
    expect(hnsw).toMatchObject({ aliases: ['分层可导航小世界图'], definition: 'a graph index for nearest neighbours.' });
    expect(hnsw.passage.text).toBe('HNSW (分层可导航小世界图): a graph index for nearest neighbours.');
  });

  it('looks a term up by any of its names, normalised, else by the glossary terms it mentions', async () => {
    const { sift, kb } = await glossaryKb();
    const exact = await call(sift, 'glossary.lookup', { kb, term: ' ｒｒｆ ' });
    expect(exact).toMatchObject({ term: 'ｒｒｆ', match: 'exact', entries: [{ term: 'RRF', aliases: ['倒数排名融合'] }] });
    expect(exact.entries[0]!.passage.text).toBe('| RRF / 倒数排名融合 | Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。 |');
    expect((await call(sift, 'glossary.lookup', { kb, term: '倒数排名融合' })).entries.map((e) => e.term)).toEqual(['RRF']);
    expect((await call(sift, 'glossary.lookup', { kb, term: 'okapi  bm25' })).entries.map((e) => e.term)).toEqual(['BM25']);
    const mentioned = await call(sift, 'glossary.lookup', { kb, term: 'MMR 和知识库有什么关系？' });
    expect(mentioned).toMatchObject({ match: 'mentioned' });
    expect(mentioned.entries.map((e) => e.term)).toEqual(['MMR', '知识库']);
    expect(await call(sift, 'glossary.lookup', { kb, term: 'tomato soup' })).toEqual({ term: 'tomato soup', match: 'none', entries: [] });
    const empty = await sift.invoke('glossary.lookup', { kb, term: '  ' });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringContaining('the term is empty') } });
  });

  it('changes with its pages: an edited page gives its new entries, a removed page takes its entries along', async () => {
    const { sift, kb, root } = await glossaryKb();
    fs.writeFileSync(path.join(root, 'docs', '术语表.md'), '# 术语表\n\n**RRF**: 倒数排名融合。\n');
    await sift.ingest(kb);
    expect((await call(sift, 'glossary.lookup', { kb, term: 'MMR' })).match).toBe('none');
    const rrf = await call(sift, 'glossary.lookup', { kb, term: 'rrf' });
    expect(rrf.entries.map((e) => [e.definition, e.passage.text])).toEqual([['倒数排名融合。', '**RRF**: 倒数排名融合。']]);
    fs.rmSync(path.join(root, 'docs', '术语表.md'));
    fs.rmSync(path.join(root, 'ops.md'));
    await sift.ingest(kb);
    expect((await call(sift, 'glossary.list', { kb })).map((e) => e.term)).toEqual(['Embedding', 'HNSW']);
  });
});
