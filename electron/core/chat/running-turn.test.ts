import { afterEach, describe, expect, it } from 'vitest';
import type { RunningTurn } from '../../../shared/chat-models';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const words = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `w${i} ` }));

describe("a conversation's running turn", () => {
  it('conversations.get returns the running turn with its partial answer and steps, then null', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: words(200), delayMs: 15 });
    const b = bench;
    let seen: RunningTurn | null = null;
    const out = await bench.ask('What is the retry policy?', {
      during: async () => {
        await new Promise((r) => setTimeout(r, 600));
        const got = await b.sift.invoke('conversations.get', { id: await onlyConversation(b) });
        if (!got.ok) throw new Error(got.error.message);
        seen = (got.value as { running: RunningTurn | null }).running;
      },
    });
    const running = seen as RunningTurn | null;
    expect(running).toMatchObject({ turnId: out.turnId, userMessageId: expect.any(String) });
    expect(running!.text).toMatch(/^w0 w1 w2 /);
    expect(out.message!.content.startsWith(running!.text)).toBe(true);
    expect(running!.steps.map((s) => s.kind)).toEqual(['searching', 'found', 'answering']);
    const after = await bench.sift.invoke('conversations.get', { id: out.conversationId });
    expect(after).toMatchObject({ ok: true, value: { running: null } });
  });

  it('refuses a second question into a conversation that is still answering, and stores nothing for it', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'First.' }] });
    const first = await bench.ask('First question?');
    // The follow-up's standalone rewrite comes first, then its (slow) answer.
    bench.ollama.onChat({ chunks: [{ content: 'Second question?' }] });
    bench.ollama.onChat({ chunks: words(100), delayMs: 20 });
    const b = bench;
    const out = await bench.ask('Second question?', {
      conversationId: first.conversationId,
      during: async () => {
        const args = { kb: b.kbId, conversationId: first.conversationId, message: 'Third?' };
        const again = await b.sift.invoke('chat.send', args);
        const error = { code: 'conflict', message: expect.stringContaining('still answering') };
        expect(again).toMatchObject({ ok: false, error });
      },
    });
    expect(out.end).toBe('answer.done');
    const stored = await bench.sift.invoke('conversations.get', { id: first.conversationId });
    const messages = stored.ok ? (stored.value as { messages: { content: string }[] }).messages : [];
    const starts = messages.map((m) => m.content.slice(0, 6));
    expect(starts).toEqual(['First ', 'First.', 'Second', expect.stringMatching(/^w0 /)]);
  });
});

/** The id of the knowledge base's only conversation. */
async function onlyConversation(b: ChatBench): Promise<string> {
  const list = await b.sift.invoke('conversations.list', { kb: b.kbId });
  if (!list.ok) throw new Error(list.error.message);
  return (list.value as { id: string }[])[0]!.id;
}
