/**
 * Deleting what a streaming answer belongs to, against a real `sift serve` process: the process must stay up and
 * keep serving, and the turn must end with a clear cancelled event (it used to die of a FOREIGN KEY failure).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type SiftClient } from '../../shared/client';
import { createHttpTransport } from '../../shared/http-transport';
import { startSift, type SiftProcess } from '../../e2e/sift-process';
import { startMockOllama, type MockOllama } from '../core/testing/ollama-mock';

let ollama: MockOllama | null = null;
let sift: SiftProcess | null = null;
let closeTransport: (() => void) | null = null;
afterEach(async () => {
  closeTransport?.();
  await sift?.stop();
  await ollama?.close();
  sift = ollama = closeTransport = null;
});

/** A mock whose answers stream for about three seconds, and a client of a fresh `sift serve` using it. */
async function start(): Promise<SiftClient> {
  ollama = await startMockOllama();
  ollama.onChat(() => ({ chunks: Array.from({ length: 60 }, (_, i) => ({ content: `word${i} ` })), delayMs: 50 }));
  sift = await startSift({ ollamaUrl: ollama.url, env: { SIFT_EMBEDDING: 'none' } });
  const url = new URL(sift.url);
  const transport = createHttpTransport({ baseUrl: url.origin, token: url.searchParams.get('token')! });
  closeTransport = () => transport.close();
  const client = createClient(transport);
  await new Promise((r) => setTimeout(r, 300)); // let the event stream connect
  return client;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms));
  return Promise.race([promise, late]);
}

/** Send a question; resolves once its first token arrived, with a promise of how the turn ended. */
async function sendAndWaitForToken(client: SiftClient, kb: string, message: string) {
  const turnId = crypto.randomUUID();
  let firstToken!: () => void;
  const tokenSeen = new Promise<void>((r) => (firstToken = r));
  const ended = new Promise<{ event: string; payload: Record<string, unknown> }>((resolve) => {
    client.subscribe('answer.token', (p) => p.turnId === turnId && firstToken());
    client.subscribe('answer.done', (p) => p.turnId === turnId && resolve({ event: 'answer.done', payload: p }));
    client.subscribe('answer.failed', (p) => p.turnId === turnId && resolve({ event: 'answer.failed', payload: p }));
  });
  const sent = await client.call('chat.send', { kb, message, turnId });
  await within(tokenSeen, 10_000, 'first token');
  return { sent, ended };
}

/** The process still answers operations and whole chat turns. */
async function expectStillServing(client: SiftClient): Promise<void> {
  const kb = await client.call('kb.create', { name: 'Later' });
  ollama!.onChat({ chunks: [{ content: 'Still here.' }] });
  const turnId = crypto.randomUUID();
  const done = new Promise<string>((resolve) =>
    client.subscribe('answer.done', (p) => p.turnId === turnId && resolve(p.message.content)),
  );
  await client.call('chat.send', { kb: kb.id, message: 'Are you still there?', turnId });
  expect(await within(done, 10_000, 'later answer')).toBe('Still here.');
}

describe('deleting while an answer streams, in a real sift serve process', () => {
  it('deleting the conversation cancels its turn and the process keeps serving', async () => {
    const client = await start();
    const kb = await client.call('kb.create', { name: 'Docs' });
    const { sent, ended } = await sendAndWaitForToken(client, kb.id, 'Tell me a long story about retries.');
    await client.call('conversations.delete', { id: sent.conversationId });
    const end = await within(ended, 10_000, 'end of the turn');
    expect(end).toEqual({
      event: 'answer.failed',
      payload: {
        turnId: sent.turnId,
        code: 'cancelled',
        message: expect.stringMatching(/conversation was deleted/),
        partial: null,
      },
    });
    expect(await client.call('conversations.list', { kb: kb.id })).toEqual([]);
    await expectStillServing(client);
  });

  it('deleting the knowledge base cancels its turns and the process keeps serving', async () => {
    const client = await start();
    const kb = await client.call('kb.create', { name: 'Docs' });
    const { sent, ended } = await sendAndWaitForToken(client, kb.id, 'Tell me a long story about retries.');
    await client.call('kb.delete', { kb: kb.id });
    const end = await within(ended, 10_000, 'end of the turn');
    expect(end.event).toBe('answer.failed');
    const message = expect.stringMatching(/knowledge base was deleted/);
    expect(end.payload).toMatchObject({ turnId: sent.turnId, code: 'cancelled', message });
    expect((await client.call('kb.list', {})).map((k) => k.name)).toEqual([]);
    await expectStillServing(client);
  });
});
