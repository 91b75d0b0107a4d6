/**
 * "Search failed" and "nothing matched" are different results: a broken index stage fails the whole
 * search with `search_failed` (never an ok result built from the other stage), while an empty
 * knowledge base, an empty scope or a query without matches is an ok, empty result. Keyword-only is
 * a declared mode with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../shared/models';
import { makeKb, openKbFile, search, startCore, valueOf, type TestCore } from './testing/test-kb';

const FILES = {
  'gateway.md': '# Gateway\n\nClients see E_CONN_RESET when the api-gateway drops idle connections.\n',
  'chat.md': '# Chat\n\nPOST v1/chat streams the answer.\n',
  '超时.md': '# 网络\n\n连接超时后重试三次。\n',
};

describe('with the test model', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await startCore('test');
  }, 60_000);
  afterAll(async () => core?.close());

  /** A fresh, indexed knowledge base with vectors, and a second connection to its file. */
  async function brokenKb(name: string, breakIt: string) {
    const { id } = await makeKb(core, name, { notes: FILES });
    expect(valueOf<SearchResult>(await search(core, { kb: id, query: 'E_CONN_RESET' })).mode).toBe('hybrid');
    const db = openKbFile(core, id);
    db.exec(breakIt);
    db.close();
    return id;
  }

  it.each([
    { name: 'dropped', breakIt: 'DROP TABLE chunk_vectors' },
    { name: 'cut', breakIt: 'UPDATE chunk_vectors SET vector = zeroblob(3) WHERE chunk_id = (SELECT min(chunk_id) FROM chunk_vectors)' },
    { name: 'short', breakIt: 'UPDATE chunk_vectors SET vector = zeroblob(8) WHERE chunk_id = (SELECT min(chunk_id) FROM chunk_vectors)' },
  ])('a broken vector table ($name) fails hybrid and vector search with search_failed', async ({ name, breakIt }) => {
    const kb = await brokenKb(`vectors-${name}`, breakIt);
    for (const mode of ['hybrid', 'vector']) {
      const result = await search(core, { kb, query: 'E_CONN_RESET', mode });
      expect(result, mode).toMatchObject({ ok: false, error: { code: 'search_failed', message: expect.stringContaining('vector search failed') } });
    }
    // The keyword stage alone still works when asked for.
    const keyword = valueOf<SearchResult>(await search(core, { kb, query: 'E_CONN_RESET', mode: 'keyword' }));
    expect(keyword.passages[0]!.pagePath).toBe('wiki/gateway.md');
  });

  it('a broken keyword index fails keyword and hybrid search with search_failed', async () => {
    const kb = await brokenKb('keywords-dropped', 'DROP TABLE chunks_fts');
    for (const mode of ['hybrid', 'keyword']) {
      const result = await search(core, { kb, query: 'E_CONN_RESET', mode });
      expect(result, mode).toMatchObject({ ok: false, error: { code: 'search_failed', message: expect.stringContaining('keyword search failed') } });
    }
  });

  it('an empty scope is an empty result that touches no index (even broken ones)', async () => {
    const kb = await brokenKb('scoped', 'DROP TABLE chunks_fts; DROP TABLE chunk_vectors;');
    for (const scope of [{ pages: ['wiki/none.md'] }, { pages: [] }, { folders: ['/nowhere'] }, { metadata: { tag: 'none' } }]) {
      const result = valueOf<SearchResult>(await search(core, { kb, query: 'E_CONN_RESET', scope }));
      expect(result, JSON.stringify(scope)).toMatchObject({ passages: [], mode: 'hybrid', keywordOnlyReason: null });
      expect(result.timings).toMatchObject({ keywordMs: null, vectorMs: null, embedMs: null });
    }
  });

  it('nothing matched is an ok result with no passages', async () => {
    const { id } = await makeKb(core, 'plain', { notes: FILES });
    const result = valueOf<SearchResult>(await search(core, { kb: id, query: 'xylophone', mode: 'keyword' }));
    expect(result).toMatchObject({ passages: [], mode: 'keyword', keywordOnlyReason: null, missingRefs: [], rejectedRefs: [] });
    expect(result.timings.keywordMs).toEqual(expect.any(Number));
  });

  it('an empty knowledge base is an empty result', async () => {
    const kb = valueOf<{ id: string }>(await core.sift.invoke('kb.create', { name: 'empty' })).id;
    expect(valueOf<SearchResult>(await search(core, { kb, query: 'anything [[wiki/a.md]]' }))).toMatchObject({ passages: [], missingRefs: ['wiki/a.md'] });
  });
});

describe('without a usable model', () => {
  let none: TestCore;
  let missing: TestCore;
  beforeAll(async () => {
    [none, missing] = await Promise.all([startCore('none'), startCore('missing')]);
  });
  afterAll(async () => {
    await none?.close();
    await missing?.close();
  });

  it('declares keyword-only with its reason when no model is configured, and refuses vector mode', async () => {
    const { id } = await makeKb(none, 'k', { notes: FILES });
    const result = valueOf<SearchResult>(await search(none, { kb: id, query: '超时', mode: 'hybrid' }));
    expect(result).toMatchObject({ mode: 'keyword', keywordOnlyReason: 'no embedding model is configured' });
    expect(result.passages[0]).toMatchObject({ pagePath: 'wiki/超时.md', vectorRank: null, vectorDistance: null });
    expect(await search(none, { kb: id, query: '超时', mode: 'vector' })).toMatchObject({
      ok: false, error: { code: 'model_unavailable', message: 'vector search is not possible: no embedding model is configured' },
    });
  });

  it('declares keyword-only when the configured model cannot be loaded', async () => {
    const { id } = await makeKb(missing, 'k', { notes: FILES });
    const result = valueOf<SearchResult>(await search(missing, { kb: id, query: 'v1/chat' }));
    expect(result.mode).toBe('keyword');
    expect(result.keywordOnlyReason).toMatch(/sift-test\/missing/);
    expect(result.passages[0]!.pagePath).toBe('wiki/chat.md');
  });

  it('answers an empty knowledge base without loading the model', async () => {
    const fresh = await startCore('missing');
    try {
      const kb = valueOf<{ id: string }>(await fresh.sift.invoke('kb.create', { name: 'empty' })).id;
      const events: string[] = [];
      fresh.sift.onEvent((event) => events.push(event));
      const result = valueOf<SearchResult>(await search(fresh, { kb, query: 'anything' }));
      expect(result).toMatchObject({ passages: [], mode: 'hybrid', keywordOnlyReason: null });
      expect(events.filter((e) => e === 'model.progress')).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
