/**
 * Page digests through a real core: a real SQLite file, the tiny embedding model, and the Ollama-compatible
 * test server writing the digests. Generation, regeneration of only the changed page, invalid citations
 * refused, the skipped status without a model server, cancel, and digests surviving a re-index.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DigestStatus, PageDetail, PageSummary, SearchResult } from '../../../shared/models';
import type { MockChatReply } from '../testing/ollama-mock';
import { startChatBench, type ChatBench } from '../chat/testing/chat-fixture';
import { startMockOpenAi, type MockOpenAi } from '../testing/openai-mock';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

/** The page a digest request is about (from the `<page path="…">` the model reads), or 'overview'. */
function pageOf(body: { messages: { content: string }[] }): string {
  const user = body.messages.at(-1)!.content;
  return /<page path="([^"]+)"/.exec(user)?.[1] ?? 'overview';
}

/** A model that writes a correct digest of every page (a made-up word per page, so search can find it). */
function goodModel(body: { messages: { content: string }[] }): MockChatReply {
  const page = pageOf(body);
  if (page === 'overview') {
    const points = ['- The notes cover runbooks, an API and a recipe [1][2].\n', '- Cooking is one topic [2].'];
    return { chunks: points.map((content) => ({ content })) };
  }
  const word = `digestword${path.basename(page, '.md')}`;
  return { chunks: [{ content: `- The page is about ${word} [1].\n` }, { content: `- It has a second point [1].` }] };
}

function chatRequests(b: ChatBench): string[] {
  return b.ollama.requests.filter((r) => r.path === '/api/chat').map((r) => pageOf(r.body));
}

async function call<T>(b: ChatBench, op: string, args: object): Promise<T> {
  const r = await b.sift.invoke(op, args);
  if (!r.ok) throw new Error(`${op}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

async function pages(b: ChatBench): Promise<PageSummary[]> {
  return call<PageSummary[]>(b, 'pages.list', { kb: b.kbId });
}

/** The next digest status of `b` that ends a run. */
function runEnd(b: ChatBench): Promise<DigestStatus> {
  return new Promise((resolve) => {
    const stop = b.sift.onEvent((event, payload) => {
      const status = payload as DigestStatus;
      if (event !== 'digests.progress' || status.state === 'running') return;
      stop();
      resolve(status);
    });
  });
}

/** A bench whose knowledge base has digests turned on, and the first run (which turning them on starts) done. */
async function startWithDigests(options: Parameters<typeof startChatBench>[0] = {}): Promise<ChatBench> {
  const b = await startChatBench(options);
  b.ollama.onChat(goodModel);
  const ended = runEnd(b);
  await call(b, 'digests.setEnabled', { kb: b.kbId, enabled: true });
  await ended;
  return b;
}

describe('page digests', () => {
  it("are written by the knowledge base's own provider when it has one", async () => {
    const box: MockOpenAi = await startMockOpenAi();
    try {
      bench = await startChatBench();
      box.onChat(goodModel);
      const provider = { name: 'box', kind: 'openai', baseUrl: box.url, apiKeyRef: null, defaultModel: 'qwen3:4b' };
      await call(bench, 'settings.set', { patch: { providers: [provider], kbProviders: { [bench.kbId]: 'box' } } });
      const ended = runEnd(bench);
      await call(bench, 'digests.setEnabled', { kb: bench.kbId, enabled: true });
      const status = await ended;
      expect(status.state).toBe('done');
      expect(status.generated).toBeGreaterThan(0);
      expect(box.requests.filter((r) => r.path.endsWith('/chat/completions')).length).toBe(status.generated);
      expect(chatRequests(bench)).toEqual([]);
    } finally {
      await box.close();
    }
  });

  it('are off by default and say so', async () => {
    bench = await startChatBench();
    const status = await bench.sift.digest(bench.kbId);
    expect(status).toMatchObject({ state: 'off', enabled: false, generated: 0, stored: 0 });
    expect(status.message).toMatch(/off for this knowledge base/);
    expect(chatRequests(bench)).toEqual([]);
    expect((await call<{ digests?: boolean }[]>(bench, 'kb.list', {}))[0]!.digests).toBe(false);
  });

  it('writes a cited digest of every page and an overview, stored as generated, searchable pages', async () => {
    bench = await startWithDigests();
    const status = (await call<DigestStatus>(bench, 'digests.status', { kb: bench.kbId }));
    expect(status).toMatchObject({ state: 'done', enabled: true, pagesTotal: 3, pagesDone: 3, generated: 4 });
    expect(status.stored).toBe(4);
    expect(status.problems).toEqual([]);
    expect(chatRequests(bench).sort()).toEqual(['overview', 'wiki/api.md', 'wiki/cooking.md', 'wiki/runbook.md']);
    const generated = (await pages(bench)).filter((p) => p.generated).map((p) => p.path);
    expect(generated).toEqual([
      'wiki/_digest/api.md', 'wiki/_digest/cooking.md', 'wiki/_digest/overview.md', 'wiki/_digest/runbook.md',
    ]);
    expect((await pages(bench)).find((p) => p.path === 'wiki/api.md')!.generated).toBe(false);

    const digest = await call<PageDetail>(bench, 'pages.get', { kb: bench.kbId, path: 'wiki/_digest/cooking.md' });
    expect(digest.generated).toBe(true);
    expect(digest.title).toBe('Digest: Tomato soup');
    expect(digest.text).toContain('The page is about digestwordcooking [1]');
    expect(digest.text).toMatch(/\[1\] wiki\/cooking\.md · Tomato soup \(characters 0–\d+\)/);
    expect(digest.metadata).toMatchObject({ generated: 'digest', source: 'wiki/cooking.md', model: 'qwen3:4b' });

    const query = { kb: bench.kbId, query: 'digestwordcooking', mode: 'keyword' };
    const found = await call<SearchResult>(bench, 'search.query', query);
    expect(found.passages.map((p) => p.pagePath)).toEqual(['wiki/_digest/cooking.md']);
    const overview = await call<PageDetail>(bench, 'pages.get', { kb: bench.kbId, path: 'wiki/_digest/overview.md' });
    expect(overview.text).toContain('Cooking is one topic [2]');
    expect(overview.text).toContain('[2] wiki/_digest/cooking.md');
  });

  it('after one file changes, makes only that page\'s digest and the overview again', async () => {
    bench = await startWithDigests();
    const before = chatRequests(bench).length;
    const folder = (await call<{ path: string }[]>(bench, 'folder.list', { kb: bench.kbId }))[0]!.path;
    const changed = '# Tomato soup\n\nSimmer tomatoes with basil for thirty minutes.\n';
    fs.writeFileSync(path.join(folder, 'cooking.md'), changed);
    await bench.sift.ingest(bench.kbId);
    const status = await bench.sift.digest(bench.kbId);
    expect(chatRequests(bench).slice(before)).toEqual(['wiki/cooking.md', 'overview']);
    expect(status).toMatchObject({ state: 'done', pagesTotal: 1, unchanged: 2, generated: 2, stored: 4 });
    const digest = await call<PageDetail>(bench, 'pages.get', { kb: bench.kbId, path: 'wiki/_digest/cooking.md' });
    const source = await call<{ sha256: string; relPath: string }[]>(bench, 'pages.manifest', { kb: bench.kbId });
    expect(digest.metadata.sourceHash).toBe(source.find((r) => r.relPath === 'cooking.md')!.sha256);

    // Nothing changed since: no model call at all.
    await bench.sift.digest(bench.kbId);
    expect(chatRequests(bench)).toHaveLength(before + 2);
  });

  it('does not store a digest whose citations fail validation, and reports why', async () => {
    bench = await startChatBench();
    bench.ollama.onChat((body) => {
      const page = pageOf(body);
      if (page === 'wiki/cooking.md') return { chunks: [{ content: '- Simmer for an hour [9].' }] };
      if (page === 'wiki/api.md') return { chunks: [{ content: '- It streams NDJSON [1].\n- It needs no token.' }] };
      if (page === 'wiki/runbook.md') return { chunks: [{ content: '- The client says "retries forever" [1].' }] };
      return goodModel(body);
    });
    await bench.sift.invoke('digests.setEnabled', { kb: bench.kbId, enabled: true });
    const status = await bench.sift.digest(bench.kbId);
    expect(status.state).toBe('done');
    expect(status.problems).toEqual([
      { path: 'wiki/api.md', status: 'rejected', reason: 'key point 2 cites no passage' },
      { path: 'wiki/cooking.md', status: 'rejected', reason: 'it cites [9], but only 1 passages were given' },
      { path: 'wiki/runbook.md', status: 'rejected', reason: 'a quotation attributed to [1] is not in that passage' },
    ]);
    expect(status.generated).toBe(0);
    expect((await pages(bench)).filter((p) => p.generated)).toEqual([]);
    const missing = await bench.sift.invoke('pages.get', { kb: bench.kbId, path: 'wiki/_digest/cooking.md' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('is skipped with a clear status when no model server is running', async () => {
    bench = await startChatBench({ ollamaDown: true });
    await bench.sift.invoke('digests.setEnabled', { kb: bench.kbId, enabled: true });
    const status = await bench.sift.digest(bench.kbId);
    expect(status).toMatchObject({ state: 'skipped', code: 'llm_unavailable', generated: 0, stored: 0 });
    expect(status.message).toMatch(/^No model server is running at http:\/\/127\.0\.0\.1:9, so no digests were made/);
    expect((await pages(bench)).some((p) => p.generated)).toBe(false);
  });

  it('stops on cancel, keeping the digests made so far', async () => {
    bench = await startChatBench();
    // The first page's digest comes at once; the next takes ~1.5 s, and the cancel comes while it is written.
    let replies = 0;
    bench.ollama.onChat((body) => {
      if (replies++ === 0) return goodModel(body);
      return { chunks: Array.from({ length: 15 }, () => ({ content: '- A point [1].\n' })), delayMs: 100 };
    });
    const ended = runEnd(bench);
    await call(bench, 'digests.setEnabled', { kb: bench.kbId, enabled: true });
    const chats = () => bench!.ollama.requests.filter((r) => r.path === '/api/chat');
    while (chats().length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(await call(bench, 'digests.cancel', { kb: bench.kbId })).toEqual({ cancelled: true });
    const status = await ended;
    expect(status).toMatchObject({ state: 'cancelled', pagesTotal: 3, pagesDone: 1, generated: 1, stored: 1 });
    expect(status.message).toMatch(/^Cancelled; the digests made so far are kept/);
    // The request being answered was closed by Sift, not sent to its end.
    while (bench.ollama.openChats > 0) await new Promise((r) => setTimeout(r, 20));
    expect(chats().map((r) => r.closedByClient)).toEqual([false, true]);
    expect((await pages(bench)).filter((p) => p.generated)).toHaveLength(1);
    expect(await call(bench, 'digests.cancel', { kb: bench.kbId })).toEqual({ cancelled: false });
  });

  it('survive a re-index, stay out of the manifest, and go when their source page goes', async () => {
    bench = await startWithDigests();
    const ingest = await bench.sift.ingest(bench.kbId);
    expect(ingest).toMatchObject({ state: 'done', filesRemoved: 0, stored: { files: 3, failed: 0, skipped: 0 } });
    expect((await pages(bench)).filter((p) => p.generated)).toHaveLength(4);
    const manifest = await call<{ relPath: string }[]>(bench, 'pages.manifest', { kb: bench.kbId });
    expect(manifest.map((r) => r.relPath)).toEqual(['api.md', 'cooking.md', 'runbook.md']);

    const folder = (await call<{ path: string }[]>(bench, 'folder.list', { kb: bench.kbId }))[0]!.path;
    fs.rmSync(path.join(folder, 'api.md'));
    await bench.sift.ingest(bench.kbId);
    const status = await bench.sift.digest(bench.kbId);
    expect(status).toMatchObject({ state: 'done', removed: 1, pagesTotal: 0, generated: 1, stored: 3 });
    expect((await pages(bench)).filter((p) => p.generated).map((p) => p.path)).toEqual([
      'wiki/_digest/cooking.md', 'wiki/_digest/overview.md', 'wiki/_digest/runbook.md',
    ]);
  });

  it('stop when their knowledge base is deleted mid-run, and its file stays gone', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: Array.from({ length: 30 }, () => ({ content: '- A point [1].\n' })), delayMs: 100 });
    await call(bench, 'digests.setEnabled', { kb: bench.kbId, enabled: true });
    while (!bench.ollama.requests.some((r) => r.path === '/api/chat')) await new Promise((r) => setTimeout(r, 20));
    expect(await call(bench, 'kb.delete', { kb: bench.kbId })).toEqual({ id: bench.kbId });
    expect(fs.existsSync(path.join(bench.dataDir, 'kbs', `${bench.kbId}.sqlite`))).toBe(false);
    const status = await bench.sift.invoke('digests.status', { kb: bench.kbId });
    expect(status).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('are removed when turned off, and made again when turned back on', async () => {
    bench = await startWithDigests();
    const off = await call<DigestStatus>(bench, 'digests.setEnabled', { kb: bench.kbId, enabled: false });
    expect(off).toMatchObject({ enabled: false, removed: 4, stored: 0 });
    expect((await pages(bench)).map((p) => p.path)).toEqual(['wiki/api.md', 'wiki/cooking.md', 'wiki/runbook.md']);
    const search = { kb: bench.kbId, query: 'digestwordcooking', mode: 'keyword' };
    expect((await call<SearchResult>(bench, 'search.query', search)).passages).toEqual([]);
    expect((await bench.sift.digest(bench.kbId)).state).toBe('off');

    const ended = runEnd(bench);
    await call(bench, 'digests.setEnabled', { kb: bench.kbId, enabled: true });
    expect(await ended).toMatchObject({ state: 'done', generated: 4, stored: 4 });
  });
});
