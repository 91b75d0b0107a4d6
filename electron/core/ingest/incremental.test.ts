/**
 * Re-indexing touches only what changed: a rerun parses and embeds nothing, a touched file is not
 * re-parsed, a changed file is the only one re-indexed, deleted files and removed folders lose their
 * pages. Across restarts: no re-embedding, a model arriving after a keyword-only run fills in
 * vectors without re-parsing, a different model re-embeds everything, an interrupted run resumes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestStatus } from '../../../shared/models';
import type { Sift } from '../sift';
import { dataPaths } from '../base/paths';
import { keywordTotals } from '../store/keyword-totals';
import { tempDir } from '../testing/temp';
import { allChunks, call, makeKb, openCore, prose, seededRandom, testEmbedding, writeCorpus, writeFiles } from './testing/fixtures';

const open = new Set<Sift>();
afterEach(async () => {
  for (const sift of open) await sift.close();
  open.clear();
});

/** A core closed after the test unless the test closes it first (with {@link closeCore}). */
function core(dataDir: string, config: Parameters<typeof openCore>[1] = {}): Sift {
  const sift = openCore(dataDir, config);
  open.add(sift);
  return sift;
}

async function closeCore(sift: Sift): Promise<void> {
  open.delete(sift);
  await sift.close();
}

/** A handful of notes, each with a word found in no other. */
function writeNotes(root: string): void {
  const random = seededRandom(21);
  writeFiles(root, {
    'alpha.md': `# Alpha\n\nuniquealpha ${prose(random, 300)}\n`,
    'beta.md': `# Beta\n\nuniquebeta ${prose(random, 300)}\n`,
    'sub/gamma.txt': `uniquegamma 伽马 ${prose(random, 300)}\n`,
    'sub/delta.md': `# Delta\n\nuniquedelta ${prose(random, 300)}\n`,
  });
}

async function keywordHits(sift: Sift, kb: string, query: string): Promise<string[]> {
  return (await call(sift, 'search.query', { kb, query, mode: 'keyword' })).passages.map((p) => p.pagePath);
}

/** Chunk ids by page path (a page rewritten gets new chunk ids; an untouched one keeps them). */
async function chunkIds(sift: Sift, kb: string): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const { path: p } of await call(sift, 'pages.list', { kb })) out.set(p, (await call(sift, 'pages.get', { kb, path: p })).chunkSpans.map((c) => c.id));
  return out;
}

describe('incremental runs', () => {
  it('parse and embed nothing unchanged, skip a touched file, and re-index only a changed one', async () => {
    const root = tempDir();
    writeNotes(root);
    const sift = core(tempDir(), { embedding: await testEmbedding(tempDir()) });
    const kb = await makeKb(sift, 'Notes', [root]);
    const first = await sift.ingest(kb);
    expect(first).toMatchObject({ state: 'done', filesIndexed: 4, pages: 4 });
    expect(first.chunksEmbeddedThisRun).toBe(first.chunks);

    const again = await sift.ingest(kb);
    expect(again).toMatchObject({ state: 'done', filesTotal: 4, filesDone: 4, filesIndexed: 0, filesRemoved: 0, chunksEmbeddedThisRun: 0 });

    const before = await chunkIds(sift, kb);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'alpha.md'), later, later);
    const touched = await sift.ingest(kb);
    expect(touched).toMatchObject({ filesIndexed: 0, chunksEmbeddedThisRun: 0 });
    expect(await chunkIds(sift, kb)).toEqual(before);

    writeFiles(root, { 'beta.md': '# Beta\n\nrewritten: uniquebetatwo replaces the old words\n' });
    const changed = await sift.ingest(kb);
    const after = await chunkIds(sift, kb);
    expect(changed).toMatchObject({ filesIndexed: 1, filesRemoved: 0, chunksEmbeddedThisRun: after.get('wiki/beta.md')!.length });
    for (const page of ['wiki/alpha.md', 'wiki/sub/gamma.txt', 'wiki/sub/delta.md']) expect(after.get(page), page).toEqual(before.get(page));
    expect(after.get('wiki/beta.md')).not.toEqual(before.get('wiki/beta.md'));
    expect(await keywordHits(sift, kb, 'uniquebeta')).toEqual([]);
    expect(await keywordHits(sift, kb, 'uniquebetatwo')).toEqual(['wiki/beta.md']);
    expect(changed.chunksEmbedded).toBe(changed.chunks);
  });

  it('keeps counting a touched file that could not be read as failed or skipped', async () => {
    const root = tempDir();
    writeFiles(root, { 'ok.md': '# Ok\n\nfine', 'broken.pdf': '%PDF-1.4 not really', 'empty.md': '' });
    const sift = core(tempDir());
    const kb = await makeKb(sift, 'Problems', [root]);
    expect(await sift.ingest(kb)).toMatchObject({ filesIndexed: 1, filesFailed: 1, filesSkipped: 1 });
    const later = new Date(Date.now() + 60_000);
    for (const f of ['broken.pdf', 'empty.md']) fs.utimesSync(path.join(root, f), later, later);
    const touched = await sift.ingest(kb);
    expect(touched).toMatchObject({ filesIndexed: 0, filesFailed: 1, filesSkipped: 1, filesDone: 3 });
    expect(touched.problems.map((p) => [p.relPath, p.status])).toEqual([['broken.pdf', 'failed'], ['empty.md', 'skipped']]);
    expect(await sift.ingest(kb)).toMatchObject({ filesIndexed: 0, filesFailed: 1, filesSkipped: 1, filesDone: 3 });
  });

  it('drops a deleted file’s page and chunks, and every page of a folder removed from the knowledge base', async () => {
    const root = tempDir();
    const other = path.join(tempDir(), 'other-notes');
    writeNotes(root);
    writeFiles(other, { 'one.md': '# One\n\nuniqueone', 'two/three.md': '# Three\n\nuniquethree' });
    const dataDir = tempDir();
    const sift = core(dataDir);
    const kb = await makeKb(sift, 'Two folders', [root, other]);
    const first = await sift.ingest(kb);
    expect(first.pages).toBe(6);
    expect((await call(sift, 'pages.list', { kb })).map((p) => p.path)).toContain('wiki/other-notes/two/three.md');

    const gammaChunks = (await call(sift, 'pages.get', { kb, path: 'wiki/sub/gamma.txt' })).chunkSpans.length;
    fs.rmSync(path.join(root, 'sub', 'gamma.txt'));
    const deleted = await sift.ingest(kb);
    expect(deleted).toMatchObject({ filesRemoved: 1, filesIndexed: 0, pages: 5, chunks: first.chunks - gammaChunks });
    expect(await sift.invoke('pages.get', { kb, path: 'wiki/sub/gamma.txt' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await keywordHits(sift, kb, 'uniquegamma')).toEqual([]);
    expect(await keywordHits(sift, kb, '伽马')).toEqual([]);

    await call(sift, 'folder.remove', { kb, path: other });
    const removed = await sift.ingest(kb);
    expect(removed).toMatchObject({ filesRemoved: 2, filesIndexed: 0, pages: 3, problems: [] });
    expect((await call(sift, 'pages.list', { kb })).every((p) => !p.path.startsWith('wiki/other-notes/'))).toBe(true);
    expect(await keywordHits(sift, kb, 'uniquethree')).toEqual([]);
    expect(await keywordHits(sift, kb, 'uniquealpha')).toEqual(['wiki/alpha.md']);
    // bm25's row counts are those of the rows left, not of every row ever written (store/keyword-totals.ts).
    const db = new Database(dataPaths(dataDir).kbDb(kb), { readonly: true });
    try {
      expect(keywordTotals(db, 'chunks_fts')[0]).toBe(removed.chunks);
      expect(keywordTotals(db, 'sections_fts')[0]).toBe(db.prepare(`SELECT count(*) FROM sections`).pluck().get());
    } finally {
      db.close();
    }
  });
});

describe('across restarts and models', () => {
  it('re-embeds nothing after a restart with the same model', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    const embedding = await testEmbedding(tempDir());
    writeNotes(root);
    const first = core(dataDir, { embedding });
    const kb = await makeKb(first, 'Restart', [root]);
    const ran = await first.ingest(kb);
    expect(ran.chunksEmbeddedThisRun).toBe(ran.chunks);
    await closeCore(first);

    const second = core(dataDir, { embedding });
    const rerun = await second.ingest(kb);
    expect(rerun).toMatchObject({ state: 'done', filesIndexed: 0, chunksEmbeddedThisRun: 0, chunksEmbedded: ran.chunks, keywordOnly: null });
  });

  it('fills in vectors without re-parsing when a model arrives after a keyword-only run', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    writeNotes(root);
    const keywordOnly = core(dataDir, { embedding: { provider: 'none' } });
    const kb = await makeKb(keywordOnly, 'Later model', [root]);
    const plain = await keywordOnly.ingest(kb);
    expect(plain).toMatchObject({ state: 'done', filesIndexed: 4, chunksEmbedded: 0, chunksEmbeddedThisRun: 0, embeddingModel: null });
    expect(plain.keywordOnly).toMatch(/no embedding model/);
    await closeCore(keywordOnly);

    const withModel = core(dataDir, { embedding: await testEmbedding(tempDir()) });
    const filled = await withModel.ingest(kb);
    expect(filled).toMatchObject({ state: 'done', filesIndexed: 0, keywordOnly: null, chunksEmbedded: plain.chunks, chunksEmbeddedThisRun: plain.chunks });
    expect(filled.embeddingModel).toContain('sift-test/tiny-embedder');
    const found = await call(withModel, 'search.query', { kb, query: 'uniquedelta', mode: 'vector' });
    expect(found.mode).toBe('vector');
    expect(found.passages.length).toBeGreaterThan(0);
  });

  it('embeds only the chunks an edit changed; the others keep their vectors', async () => {
    const root = tempDir();
    const random = seededRandom(5);
    const paragraphs = Array.from({ length: 6 }, (_, n) => `## Part ${n}\n\nuniquepart${n} ${prose(random, 120)}`);
    writeFiles(root, { 'long.md': `# Long note\n\n${paragraphs.join('\n\n')}\n` });
    const sift = core(tempDir(), { embedding: await testEmbedding(tempDir()) });
    const kb = await makeKb(sift, 'Edits', [root]);
    const first = await sift.ingest(kb);
    const before = (await call(sift, 'pages.get', { kb, path: 'wiki/long.md' })).chunkSpans;
    expect(before.length).toBeGreaterThan(6);

    paragraphs[5] = `## Part 5\n\nuniquerewritten ${prose(random, 120)}`;
    writeFiles(root, { 'long.md': `# Long note\n\n${paragraphs.join('\n\n')}\n` });
    const edited = await sift.ingest(kb);
    const after = (await call(sift, 'pages.get', { kb, path: 'wiki/long.md' })).chunkSpans;
    const oldHashes = new Set(before.map((c) => c.hash));
    const changed = after.filter((c) => !oldHashes.has(c.hash)).length;
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(after.length / 2);
    expect(edited).toMatchObject({ filesIndexed: 1, chunks: after.length, chunksEmbedded: after.length, chunksEmbeddedThisRun: changed });
    expect(after.every((c) => c.embedded)).toBe(true);
    expect(first.chunksEmbeddedThisRun).toBe(before.length);
    // The kept vectors are found: an unchanged part and the rewritten one, by vector search alone.
    for (const query of ['uniquepart0', 'uniquerewritten']) {
      const found = await call(sift, 'search.query', { kb, query, mode: 'vector', topK: 50 });
      expect(found.mode).toBe('vector');
      expect(found.passages.map((p) => p.pagePath)).toContain('wiki/long.md');
    }
  });

  it('re-embeds every chunk when the model changes, and records the new model', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    const models = tempDir();
    writeNotes(root);
    const first = core(dataDir, { embedding: await testEmbedding(models) });
    const kb = await makeKb(first, 'New model', [root]);
    const before = await first.ingest(kb);
    await closeCore(first);

    const second = core(dataDir, { embedding: await testEmbedding(models, { modelId: 'sift-test/other-embedder', dimension: 24 }) });
    const after = await second.ingest(kb);
    expect(after).toMatchObject({ state: 'done', filesIndexed: 0, chunks: before.chunks, chunksEmbedded: before.chunks, chunksEmbeddedThisRun: before.chunks });
    expect(before.embeddingModel).toContain('sift-test/tiny-embedder');
    expect(after.embeddingModel).toContain('sift-test/other-embedder');
    const found = await call(second, 'search.query', { kb, query: 'uniquealpha deploy', mode: 'vector' });
    expect(found.passages.length).toBeGreaterThan(0);
  });
});

describe('an interrupted run', () => {
  /** Start a run, close the core from inside the first progress event that `when` accepts, and wait for the close. */
  async function interrupt(sift: Sift, kb: string, when: (s: IngestStatus) => boolean): Promise<void> {
    let closing: Promise<void> | null = null;
    sift.onEvent((name, payload) => {
      if (name === 'ingest.progress' && !closing && when(payload as IngestStatus)) closing = closeCore(sift);
    });
    await call(sift, 'ingest.start', { kb });
    const started = Date.now();
    while (!closing && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closing, 'the run never reached the moment to interrupt it').not.toBeNull();
    await closing;
  }

  it('resumes embedding where it stopped, without re-parsing', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    const embedding = await testEmbedding(tempDir());
    writeCorpus(root, { small: 20, large: 3, seed: 5 });
    const first = core(dataDir, { embedding, indexer: { embedBatch: 8, progressIntervalMs: 0 } });
    const kb = await makeKb(first, 'Interrupted', [root]);
    await interrupt(first, kb, (s) => s.state === 'embedding' && s.chunksEmbedded >= 40);

    const second = core(dataDir, { embedding });
    const stopped = await call(second, 'ingest.status', { kb });
    expect(stopped.pages).toBe(23);
    expect(stopped.chunksEmbedded).toBeGreaterThanOrEqual(40);
    expect(stopped.chunksEmbedded).toBeLessThan(stopped.chunks);
    const resumed = await second.ingest(kb);
    expect(resumed).toMatchObject({ state: 'done', error: null, filesIndexed: 0, chunks: stopped.chunks, chunksEmbedded: stopped.chunks });
    expect(resumed.chunksEmbeddedThisRun).toBe(stopped.chunks - stopped.chunksEmbedded);
    expect((await allChunks(second, kb)).every((c) => c.embedded)).toBe(true);
  });

  it('resumes indexing where it stopped, parsing only the files not yet written', async () => {
    const root = tempDir();
    const dataDir = tempDir();
    writeCorpus(root, { small: 120, large: 0, seed: 6 });
    // Batches of 10 files, so the run is stopped with most batches not yet handed out.
    const first = core(dataDir, { indexer: { concurrency: 2, batchFiles: 10, progressIntervalMs: 0 } });
    const kb = await makeKb(first, 'Interrupted', [root]);
    await interrupt(first, kb, (s) => s.state === 'indexing' && s.filesDone >= 30);

    const second = core(dataDir);
    const stopped = await call(second, 'ingest.status', { kb });
    expect(stopped.pages).toBeGreaterThanOrEqual(30);
    expect(stopped.pages).toBeLessThan(120);
    const resumed = await second.ingest(kb);
    expect(resumed).toMatchObject({ state: 'done', error: null, pages: 120, filesIndexed: 120 - stopped.pages });
  });
});
