/**
 * search.query end to end: files indexed by the real pipeline, searched through the core's validated
 * entry point, with the generated test model for the vector stage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail, Passage, SearchResult } from '../../../shared/models';
import { sha256 } from './passages';
import { makeKb, search, startCore, valueOf, type SearchArgs, type TestCore } from './testing/test-kb';

const lighthouse = (n: number) =>
  `Entry ${n}: the lighthouse keeper climbed the stairs at dusk, lit the lamp and wrote the weather into the log. ` +
  `Ships passed to the north; the lighthouse beam swept the water every ten seconds until the morning came. `;

const FILES = {
  'gateway.md': '# Gateway resets\n\nClients see E_CONN_RESET when the api-gateway drops idle connections. Retry once.\n',
  'refused.md': '# Refused\n\nE_CONN_REFUSED means that nothing listens on the port.\n',
  'chat-api.md': '# Chat API\n\nPOST v1/chat streams the answer. Send conversations to v1/chat.\n',
  'embed-api.md': '# Embeddings\n\nPOST v1/embeddings returns one vector per input.\n',
  '超时.md': '# 网络问题\n\n连接超时后重试三次，每次间隔两秒。\n',
  '缓存.md': '# 缓存\n\n缓存的过期时间为十分钟。\n',
  'long.md': `# Keeper's log\n\n${[1, 2, 3, 4, 5, 6].map(lighthouse).join('\n\n')}\n`,
  'opening.md': '# Opening words\n\nThe first paragraph of the opening page.\n\n## Later\n\nSomething else entirely.\n',
};

let core: TestCore;
let kb: string;
beforeAll(async () => {
  core = await startCore('test');
  kb = (await makeKb(core, 'main', { notes: FILES })).id;
}, 60_000);
afterAll(async () => core?.close());

async function run(args: Omit<SearchArgs, 'kb'> & { query: string }): Promise<SearchResult> {
  return valueOf<SearchResult>(await search(core, { kb, ...args }));
}

async function page(path: string): Promise<PageDetail> {
  return valueOf<PageDetail>(await core.sift.invoke('pages.get', { kb, path }));
}

describe('keyword search finds what people type', () => {
  it.each([
    { query: '超时', page: 'wiki/超时.md', why: 'a 2-character Chinese word inside a longer run' },
    { query: '重试', page: 'wiki/超时.md', why: 'another 2-character word of the same run' },
    { query: '过期', page: 'wiki/缓存.md', why: 'a 2-character word' },
    { query: 'E_CONN_RESET', page: 'wiki/gateway.md', why: 'an error code, not its sibling E_CONN_REFUSED' },
    { query: 'e_conn_reset', page: 'wiki/gateway.md', why: 'an error code typed in lower case' },
    { query: 'E_CONN_REFUSED', page: 'wiki/refused.md', why: 'the sibling error code' },
    { query: 'v1/chat', page: 'wiki/chat-api.md', why: 'an API path, not v1/embeddings' },
    { query: 'v1/embeddings', page: 'wiki/embed-api.md', why: 'the other API path' },
    { query: 'api-gateway', page: 'wiki/gateway.md', why: 'a hyphenated name' },
  ])('$query → $page ($why)', async ({ query, page: expected }) => {
    const result = await run({ query, mode: 'keyword' });
    expect(result.passages[0]).toMatchObject({ pagePath: expected, keywordRank: 1 });
    expect(result.passages[0]!.keywordScore).toBeGreaterThan(0);
  });

  it('does not find a 2-character word in a page that only shares one character', async () => {
    // 缓存.md has 时 (in 时间) but not 超时.
    const result = await run({ query: '超时', mode: 'keyword' });
    expect(result.passages.map((p) => p.pagePath)).toEqual(['wiki/超时.md']);
  });

  it.each([
    { query: '超时', reason: 'body' },
    { query: '缓存', reason: 'title' },
  ])('says why $query was found: $reason', async ({ query, reason }) => {
    expect((await run({ query, mode: 'keyword' })).passages[0]!.hitReason).toBe(reason);
  });
});

describe('explicit references', () => {
  it('puts the referenced page first, lists refused and missing references, and gives the opening passage when nothing in it matches', async () => {
    const result = await run({ query: '[[wiki/opening.md]] [[wiki/../etc]] [[/abs]] [[notwiki/x]] [[wiki/missing.md]] E_CONN_RESET', mode: 'keyword' });
    const first = (await page('wiki/opening.md')).chunkSpans[0]!;
    expect(result.passages[0]).toMatchObject({
      pagePath: 'wiki/opening.md', hitReason: 'explicit', start: first.start, end: first.end,
      keywordRank: null, keywordScore: null, vectorRank: null, vectorDistance: null, rrfScore: null,
    });
    // "reset", a part of E_CONN_RESET, is in the title "Gateway resets".
    expect(result.passages[1]).toMatchObject({ pagePath: 'wiki/gateway.md', hitReason: 'title' });
    expect(result.missingRefs).toEqual(['wiki/missing.md']);
    expect(result.rejectedRefs).toEqual([
      { raw: '[[wiki/../etc]]', reason: "the path contains a '..' segment" },
      { raw: '[[/abs]]', reason: expect.stringContaining('absolute') },
      { raw: '[[notwiki/x]]', reason: 'the path must start with wiki/' },
    ]);
  });

  it('gives the matching passage of a referenced page, and takes references from `refs` too', async () => {
    const inPage = await run({ query: '[[wiki/opening.md]] entirely', mode: 'keyword' });
    expect(inPage.passages[0]).toMatchObject({ pagePath: 'wiki/opening.md', hitReason: 'explicit', keywordRank: 1 });
    expect(inPage.passages[0]!.text).toContain('Something else entirely.');
    const viaArgs = await run({ query: 'v1/chat', refs: ['wiki/gateway.md'], mode: 'hybrid' });
    expect(viaArgs.passages[0]).toMatchObject({ pagePath: 'wiki/gateway.md', hitReason: 'explicit' });
    expect(viaArgs.passages[1]).toMatchObject({ pagePath: 'wiki/chat-api.md' });
  });
});

describe('stage figures', () => {
  it('are null for the stage that did not run, and the timings say so', async () => {
    const result = await run({ query: 'lighthouse', mode: 'keyword' });
    expect(result.mode).toBe('keyword');
    expect(result.timings).toMatchObject({ embedMs: null, vectorMs: null, keywordMs: expect.any(Number) });
    for (const p of result.passages) expect(p).toMatchObject({ vectorRank: null, vectorDistance: null, keywordRank: expect.any(Number) });
  });

  it('are null (never 0) for a passage only one stage found, in hybrid mode', async () => {
    const result = await run({ query: 'lighthouse', mode: 'hybrid', topK: 10 });
    expect(result.mode).toBe('hybrid');
    expect(result.timings).toMatchObject({ embedMs: expect.any(Number), vectorMs: expect.any(Number), keywordMs: expect.any(Number) });
    const vectorOnly = result.passages.filter((p) => p.keywordRank === null);
    expect(vectorOnly.length).toBeGreaterThan(0);
    for (const p of result.passages) {
      expect(p.keywordScore === null).toBe(p.keywordRank === null);
      expect(p.vectorDistance === null).toBe(p.vectorRank === null);
      expect(p.keywordRank === null && p.vectorRank === null).toBe(false);
      for (const rank of [p.keywordRank, p.vectorRank]) if (rank !== null) expect(rank).toBeGreaterThanOrEqual(1);
      expect(p.rrfScore).toBeGreaterThan(0);
    }
    expect(result.passages[0]).toMatchObject({ pagePath: 'wiki/long.md', keywordRank: 1 });
  });
});

describe('passages', () => {
  it('merges neighbouring chunks of one page into one passage, sliced exactly from the page', async () => {
    const result = await run({ query: 'lighthouse', mode: 'keyword' });
    const long = await page('wiki/long.md');
    const fromLong = result.passages.filter((p) => p.pagePath === 'wiki/long.md');
    expect(long.chunkSpans.length).toBeGreaterThanOrEqual(3);
    expect(fromLong).toHaveLength(1);
    const [p] = fromLong as [Passage];
    expect(p.start).toBe(long.chunkSpans[0]!.start);
    expect(p.end).toBe(long.chunkSpans.at(-1)!.end);
    expect(p.text).toBe(long.text.slice(p.start, p.end));
    expect(p.contentHash).toBe(sha256(p.text));
    expect(p.provenance.headingPath).toEqual(["Keeper's log"]);
  });

  it.each(['hybrid', 'keyword'] as const)('slices every passage exactly from its page (%s)', async (mode) => {
    const result = await run({ query: 'E_CONN_RESET 超时 v1/chat lighthouse', mode, topK: 20 });
    expect(result.passages.length).toBeGreaterThan(3);
    for (const p of result.passages) {
      const text = (await page(p.pagePath)).text;
      expect(p.text).toBe(text.slice(p.start, p.end));
      expect(p.contentHash).toBe(sha256(p.text));
    }
  });
});

describe('topK', () => {
  it('returns at most topK passages', async () => {
    expect((await run({ query: 'lighthouse E_CONN_RESET 超时 v1/chat', mode: 'hybrid', topK: 1 })).passages).toHaveLength(1);
    expect((await run({ query: 'lighthouse E_CONN_RESET 超时 v1/chat', mode: 'hybrid', topK: 3 })).passages).toHaveLength(3);
    const all = await run({ query: 'lighthouse E_CONN_RESET 超时 v1/chat', mode: 'hybrid', topK: 50 });
    expect(all.passages.length).toBeGreaterThan(3);
    expect(all.passages.length).toBeLessThanOrEqual(50);
  });

  it.each([0, 51, 2.5, -1])('refuses topK %s', async (topK) => {
    expect(await search(core, { kb, query: 'lighthouse', topK })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('refuses an empty query and one longer than 4,000 characters', async () => {
    expect(await search(core, { kb, query: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await search(core, { kb, query: 'a'.repeat(4001) })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});

describe('repeatability', () => {
  it.each(['hybrid', 'keyword'] as const)('gives the same passages for the same query twice (%s)', async (mode) => {
    const query = 'E_CONN_RESET 超时 lighthouse';
    const first = await run({ query, mode, topK: 10 });
    const second = await run({ query, mode, topK: 10 });
    expect(second.passages).toEqual(first.passages);
    expect(first.passages.length).toBeGreaterThan(2);
  });
});
