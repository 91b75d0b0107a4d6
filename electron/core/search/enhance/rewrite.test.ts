import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../llm/ollama-client';
import { startMockOllama, type MockOllama } from '../../testing/ollama-mock';
import { completerOf } from './completer';
import { keyTerms, queryOfReply, rewriteFollowUp, widenWithTerms, type HistoryTurn } from './rewrite';

let server: MockOllama | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const HISTORY: HistoryTurn[] = [
  { role: 'user', content: 'How do I install Sift on Linux?' },
  { role: 'assistant', content: 'Download the AppImage and run it [1].' },
];

async function mockCompleter(reply: { chunks: { content: string }[]; delayMs?: number }) {
  server = await startMockOllama();
  server.onChat(reply);
  return completerOf(createLlmClient({ host: server.url }), 'qwen3:4b');
}

describe('follow-up rewriting', () => {
  it('lets the model rewrite a follow-up from the last turns, keeping [[wiki/…]] references verbatim', async () => {
    const completer = await mockCompleter({ chunks: [{ content: 'Query: "How do I install Sift ' }, { content: 'on Windows?"\nBecause…' }] });
    const out = await rewriteFollowUp('and on Windows? [[wiki/install.md]]', HISTORY, completer);
    expect(out).toMatchObject({ query: 'How do I install Sift on Windows? [[wiki/install.md]]', via: 'model', note: null });
    const body = server!.requests.find((r) => r.path === '/api/chat')!.body;
    expect(body.messages[1].content).toBe(
      'User: How do I install Sift on Linux?\nAssistant: Download the AppImage and run it [1].\nUser (last message): and on Windows? [[wiki/install.md]]',
    );
    expect(body.options.num_predict).toBe(80);
  });

  it('without a model adds the previous question\'s key terms and says why', async () => {
    const out = await rewriteFollowUp('and on Windows?', HISTORY, 'Ollama is not reachable at http://127.0.0.1:9');
    expect(out.query).toBe('and on Windows? install Sift Linux');
    expect(out.via).toBe('terms');
    expect(out.note).toMatch(/not rewritten by the model \(no model \(Ollama is not reachable at http:\/\/127\.0\.0\.1:9\)\)/);
  });

  it('falls back to key terms for Chinese follow-ups when the model is too slow', async () => {
    const completer = await mockCompleter({ chunks: [{ content: 'a' }, { content: 'b' }], delayMs: 200 });
    const slow = (m: Parameters<typeof completer>[0], o: Parameters<typeof completer>[1]) => completer(m, { ...o, timeoutMs: 100 });
    const history: HistoryTurn[] = [{ role: 'user', content: '如何配置灰度发布？' }, { role: 'assistant', content: '分三步 [1]。' }];
    const out = await rewriteFollowUp('那第二步呢？', history, slow);
    expect(out.query).toBe('那第二步呢？ 配置 灰度 发布');
    expect(out.via).toBe('terms');
    expect(out.note).toMatch(/no reply within/);
  });

  it('searches a first question as typed, asking no model', async () => {
    const out = await rewriteFollowUp('What is the retry policy?', [], 'unused');
    expect(out).toEqual({ query: 'What is the retry policy?', via: null, note: null, ms: 0 });
  });

  it('reads the query line of a reply, refusing empty and answer-length replies', () => {
    expect(queryOfReply('\n  「安装 Sift 的第二步」  \n')).toBe('安装 Sift 的第二步');
    expect(queryOfReply('   ')).toBeNull();
    expect(queryOfReply('x'.repeat(301))).toBeNull();
  });

  it('finds key terms without function words or references', () => {
    expect(keyTerms('How do I install Sift on Linux? [[wiki/a.md]]')).toEqual(['install', 'Sift', 'Linux']);
    expect(widenWithTerms('Sift on Windows?', HISTORY)).toBe('Sift on Windows? install Linux');
  });
});
