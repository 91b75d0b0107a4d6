/**
 * The cross-encoder reranker behind `search.query` (issue #15): the core makes it from the settings' model id and
 * the models folder, and a search that asks for it is reranked by the real provider on the tiny generated model
 * (its score: how many of the query's words a passage holds). No chat model is needed.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../../shared/models';
import { TEST_CROSS_ENCODER_ID, writeTestCrossEncoder } from '../rerank/testing/test-cross-encoder';
import { makeKb, search, startCore, valueOf, type TestCore } from '../testing/test-kb';

let core: TestCore | null = null;
afterEach(async () => {
  delete process.env.SIFT_MODEL_HOST;
  await core?.close();
  core = null;
});

const NOTES = {
  // Holds one word of the question, often.
  'a.md': '# Retry\n\nretry retry retry retry: the retry loop of the uploader.\n',
  // Holds every word of the question once.
  'b.md': '# Gateway\n\nthe gateway will retry a request after a timeout of ten seconds\n',
  'c.md': '# Other\n\ncats and dogs\n',
};

describe('search.query with the cross-encoder reranker', () => {
  it('reranks the fused candidates with the model of the settings, without a chat model', async () => {
    core = await startCore('none');
    await writeTestCrossEncoder(path.join(core.dataDir, 'models'));
    valueOf(await core.sift.invoke('settings.set', { patch: { rerankModelId: TEST_CROSS_ENCODER_ID } }));
    const kb = await makeKb(core, 'Notes', { notes: NOTES });
    const query = 'gateway retry timeout';
    const plain = valueOf<SearchResult>(await search(core, { kb: kb.id, query, mode: 'keyword' }));
    const reranked = valueOf<SearchResult>(await search(core, { kb: kb.id, query, mode: 'keyword', enhance: { rerank: 'cross-encoder' } }));
    expect(reranked.enhance!.applied.rerank).toBe('cross-encoder');
    expect(reranked.enhance!.rerank).toMatchObject({ kind: 'cross-encoder', fallback: null });
    expect(reranked.passages[0]!.pagePath).toBe('wiki/b.md');
    expect(reranked.passages[0]!.rerankPosition).toBe(1);
    // The model's scores: b holds the three words of the question, a one of them.
    const score = (page: string) => reranked.passages.find((p) => p.pagePath === page)!.rerankScore!;
    expect(score('wiki/b.md')).toBeGreaterThan(score('wiki/a.md'));
    expect(reranked.passages.map((p) => p.rerankPosition)).toEqual(reranked.passages.map((_, i) => i + 1));
    expect(new Set(reranked.passages.map((p) => p.pagePath))).toEqual(new Set(plain.passages.map((p) => p.pagePath)));
  }, 60_000);

  it('keeps the fused order and says why when the model is not there', async () => {
    // Nothing listens on port 9: the download fails at once, on any machine.
    process.env.SIFT_MODEL_HOST = 'http://127.0.0.1:9/';
    core = await startCore('none');
    valueOf(await core.sift.invoke('settings.set', { patch: { rerankModelId: 'sift-test/not-here' } }));
    const kb = await makeKb(core, 'Notes', { notes: NOTES });
    const query = 'gateway retry timeout';
    const plain = valueOf<SearchResult>(await search(core, { kb: kb.id, query, mode: 'keyword' }));
    const asked = valueOf<SearchResult>(await search(core, { kb: kb.id, query, mode: 'keyword', enhance: { rerank: 'cross-encoder' } }));
    expect(asked.enhance!.rerank!.fallback).toMatch(/not-here/);
    expect(asked.passages.map((p) => p.pagePath)).toEqual(plain.passages.map((p) => p.pagePath));
  }, 60_000);
});
