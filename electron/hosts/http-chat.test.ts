import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/chat-models';
import { createClient } from '../../shared/client';
import { createHttpTransport } from '../../shared/http-transport';
import { startChatBench, type ChatBench } from '../core/chat/testing/chat-fixture';
import { startHttpHost, type HttpHost } from './http-host';

let bench: ChatBench | null = null;
let host: HttpHost | null = null;
afterEach(async () => {
  await host?.close();
  await bench?.close();
});

describe('a whole chat turn through the HTTP host', () => {
  it('streams the events over SSE and stores the answer', async () => {
    bench = await startChatBench();
    host = await startHttpHost(bench.sift);
    const transport = createHttpTransport({ baseUrl: host.origin, token: host.token });
    const client = createClient(transport);
    const turnId = crypto.randomUUID();
    const seen: string[] = [];
    let tokens = '';
    const done = new Promise<ChatMessage>((resolve) => {
      for (const event of ['turn.started', 'search.started', 'search.done', 'answer.token'] as const) {
        client.subscribe(event, (p) => {
          if (p.turnId !== turnId) return;
          if (seen.at(-1) !== event) seen.push(event);
          if (event === 'answer.token') tokens += (p as { text: string }).text;
        });
      }
      client.subscribe('answer.done', (p) => {
        if (p.turnId === turnId) {
          seen.push('answer.done');
          resolve(p.message);
        }
      });
    });
    await new Promise((r) => setTimeout(r, 200)); // let the event stream connect
    bench.ollama.onChat({ chunks: [{ content: 'It retries three times' }, { content: ' [1].' }], delayMs: 20 });
    const sent = await client.call('chat.send', { kb: 'Docs', message: 'How often does the client retry?', turnId });
    const message = await done;
    transport.close();
    expect(seen).toEqual(['turn.started', 'search.started', 'search.done', 'answer.token', 'answer.done']);
    expect(tokens).toBe('It retries three times [1].');
    expect(message.turn).toMatchObject({ status: 'complete', decision: 'answered', citations: [{ number: 1, valid: true }] });
    const stored = await client.call('conversations.get', { id: sent.conversationId });
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await client.call('chat.cancel', { turnId })).toEqual({ cancelled: false });
  });
});
