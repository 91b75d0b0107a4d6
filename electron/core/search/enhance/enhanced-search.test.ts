/**
 * Enhanced search end to end: `search.query` through the validated entry point with the Ollama test server as the
 * chat model — multi-query fusion, the HyDE probe, LLM rerank, rewriting with history, and everything off without a
 * model — with the stage figures checked in the result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../../shared/models';
import { startMockOllama, type MockChatReply, type MockOllama } from '../../testing/ollama-mock';
import { makeKb, search, startCore, valueOf, type TestCore } from '../testing/test-kb';

const FILES = {
  'windows.md': '# Windows setup\n\nRun the MSI installer, then open Sift from the Start menu.\n',
  'linux.md': '# Linux setup\n\nDownload the AppImage, mark it executable and run it.\n',
  'soup.md': '# Tomato soup\n\nSimmer tomatoes with garlic for twenty minutes, then blend.\n',
  'retry.md': '# Retry policy\n\nThe client retries a failed connection three times, two seconds apart.\n',
};

/** The test server's answer to each helper prompt, by what its system prompt asks for. */
let replies: { multi: string; hyde: string; rerank: string; rewrite: string };
function answer(body: { messages: { content: string }[] }): MockChatReply {
  const system = body.messages[0]!.content;
  const text = /different search queries/.test(system) ? replies.multi
    : /short passage/.test(system) ? replies.hyde
    : /rank passages/.test(system) ? replies.rerank
    : /standalone search query/.test(system) ? replies.rewrite
    : '(unexpected prompt)';
  return { chunks: [{ content: text }] };
}

let ollama: MockOllama;
let keywordCore: TestCore;
let hybridCore: TestCore;
let downCore: TestCore;
const kbs: Record<string, string> = {};
beforeAll(async () => {
  ollama = await startMockOllama();
  ollama.onChat(answer);
  keywordCore = await startCore('none', {}, { host: ollama.url });
  hybridCore = await startCore('test', {}, { host: ollama.url });
  downCore = await startCore('none', {}, { host: 'http://127.0.0.1:9', connectTimeoutMs: 1000 });
  kbs.keyword = (await makeKb(keywordCore, 'kw', { notes: FILES })).id;
  kbs.hybrid = (await makeKb(hybridCore, 'hy', { notes: FILES })).id;
  kbs.down = (await makeKb(downCore, 'down', { notes: FILES })).id;
}, 60_000);
afterAll(async () => {
  await Promise.all([keywordCore?.close(), hybridCore?.close(), downCore?.close()]);
  await ollama?.close();
});

function reset() {
  replies = { multi: 'AppImage executable\nmsi INSTALLER!', hyde: 'Open the MSI installer and follow the setup wizard.', rerank: '2, 1', rewrite: 'install Sift on Windows' };
}

async function run(core: TestCore, kb: string, args: { query: string } & Record<string, unknown>): Promise<SearchResult> {
  return valueOf<SearchResult>(await search(core, { kb, topK: 5, ...args }));
}
const paths = (r: SearchResult) => r.passages.map((p) => p.pagePath);

describe('enhanced search through search.query', () => {
  it('runs multi-query: the original first, duplicates dropped, every list in one fusion, each passage naming its probe', async () => {
    reset();
    const r = await run(keywordCore, kbs.keyword!, { query: 'MSI installer', enhance: { multiQuery: 3 } });
    expect(r.enhance!.probes).toEqual([
      { kind: 'query', text: 'MSI installer', stages: ['keyword'] },
      { kind: 'multi-query', text: 'AppImage executable', stages: ['keyword'] },
    ]);
    expect(paths(r)).toEqual(['wiki/windows.md', 'wiki/linux.md']);
    expect(r.passages[0]!.probes).toEqual([{ probe: 0, stage: 'keyword', rank: 1 }]);
    expect(r.passages[1]!.probes).toEqual([{ probe: 1, stage: 'keyword', rank: 1 }]);
    expect(r.enhance!.applied).toEqual({ rewrite: true, multiQuery: 3, hyde: false, rerank: null });
    expect(r.enhance!.ms.multiQuery).toEqual(expect.any(Number));
    const plain = await run(keywordCore, kbs.keyword!, { query: 'MSI installer' });
    expect(paths(plain)).toEqual(['wiki/windows.md']);
    expect(plain.enhance).toBeUndefined();
    expect(plain.passages[0]!.probes).toBeUndefined();
  });

  it('embeds a HyDE passage as one more vector probe', async () => {
    reset();
    const r = await run(hybridCore, kbs.hybrid!, { query: 'installing on Windows', enhance: { hyde: true } });
    expect(r.enhance!.probes.map((p) => [p.kind, p.stages])).toEqual([['query', ['keyword', 'vector']], ['hyde', ['vector']]]);
    expect(r.enhance!.probes[1]!.text).toBe(replies.hyde);
    expect(r.passages.some((p) => p.probes?.some((h) => h.probe === 1 && h.stage === 'vector'))).toBe(true);
    expect(r.enhance!.ms.hyde).toEqual(expect.any(Number));
    expect(r.enhance!.notes).toEqual([]);
  });

  it('skips HyDE with a note in a keyword-only knowledge base', async () => {
    reset();
    const r = await run(keywordCore, kbs.keyword!, { query: 'MSI installer', enhance: { hyde: true } });
    expect(r.enhance!.probes).toHaveLength(1);
    expect(r.enhance!.notes).toEqual([expect.stringMatching(/^HyDE: skipped, this search is keyword-only/)]);
  });

  it('reranks the fused candidates with the LLM, recording positions; a malformed reply keeps fused order with a flag', async () => {
    reset();
    const plain = await run(keywordCore, kbs.keyword!, { query: 'setup installer AppImage' });
    expect(plain.passages.length).toBe(2);
    const r = await run(keywordCore, kbs.keyword!, { query: 'setup installer AppImage', enhance: { rerank: 'llm' } });
    expect(paths(r)).toEqual([paths(plain)[1], paths(plain)[0]]);
    expect(r.passages.map((p) => p.rerankPosition)).toEqual([1, 2]);
    expect(r.enhance!.rerank).toMatchObject({ kind: 'llm', candidates: 2, fallback: null });
    replies.rerank = 'the first one';
    const bad = await run(keywordCore, kbs.keyword!, { query: 'setup installer AppImage', enhance: { rerank: 'llm' } });
    expect(paths(bad)).toEqual(paths(plain));
    expect(bad.enhance!.rerank!.fallback).toMatch(/not valid/);
    expect(bad.passages.map((p) => p.rerankPosition)).toEqual([null, null]);
  });

  it('rewrites a follow-up from the earlier questions', async () => {
    reset();
    const r = await run(keywordCore, kbs.keyword!, { query: 'and on Windows?', history: ['How do I install Sift on Linux?'], enhance: { rewrite: true } });
    expect(r.enhance!.rewrittenFrom).toBe('and on Windows?');
    expect(r.enhance!.probes[0]).toEqual({ kind: 'rewrite', text: 'install Sift on Windows', stages: ['keyword'] });
    expect(paths(r)[0]).toBe('wiki/windows.md');
  });

  it('turns every LLM enhancement off without a model, and says so', async () => {
    const asked = { multiQuery: 3, hyde: true, rerank: 'llm' };
    const r = await run(downCore, kbs.down!, { query: 'MSI installer', enhance: asked });
    expect(r.enhance!.applied).toEqual({ rewrite: true, multiQuery: 1, hyde: false, rerank: null });
    expect(r.enhance!.notes).toEqual([expect.stringMatching(/^multi-query, HyDE, LLM rerank: off, no model \(Ollama is not reachable/)]);
    expect(r.enhance!.probes).toHaveLength(1);
    expect(paths(r)).toEqual(['wiki/windows.md']);
  });
});
