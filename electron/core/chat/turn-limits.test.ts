import { afterEach, describe, expect, it } from 'vitest';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

function chatBodies(b: ChatBench) {
  const chats = b.ollama.requests.filter((r) => r.path === '/api/chat');
  return chats.map((r) => r.body as { options?: Record<string, unknown> });
}

const words = (n: number, word = 'word ') => Array.from({ length: n }, () => ({ content: word }));

describe('the limits of a chat turn', () => {
  it('sends num_predict from the maxAnswerTokens setting with every round', async () => {
    bench = await startChatBench();
    await bench.sift.invoke('settings.set', { patch: { maxAnswerTokens: 1024 } });
    bench.ollama.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const out = await bench.ask('How often does the client retry?');
    expect(out.message!.turn!.status).toBe('complete');
    expect(chatBodies(bench)[0]!.options).toMatchObject({ num_predict: 1024, num_ctx: 8192 });
  });

  it('cuts an endless answer at the maximum length, closes the request, and says so', async () => {
    bench = await startChatBench({ chat: { maxAnswerChars: 300 } });
    bench.ollama.onChat({ chunks: words(20_000), delayMs: 1 });
    const out = await bench.ask('Tell me everything about the retry policy.');
    expect(out.end).toBe('answer.done');
    const turn = out.message!.turn!;
    expect(turn.status).toBe('truncated');
    expect(turn.warnings).toEqual([expect.stringContaining('maximum answer length (300 characters)')]);
    expect(out.message!.content).toHaveLength(300);
    await expect.poll(() => bench!.ollama.requests.find((r) => r.path === '/api/chat')!.closedByClient).toBe(true);
  });

  it('stops a turn at its maximum time with the partial answer kept', async () => {
    bench = await startChatBench({ chat: { maxTurnMs: 1500, idleTimeoutMs: 5000 } });
    bench.ollama.onChat({ chunks: words(2000, 'a '), delayMs: 20 });
    const t = Date.now();
    const out = await bench.ask('Tell me everything about the retry policy.');
    expect(Date.now() - t).toBeLessThan(5000);
    expect(out.end).toBe('answer.done');
    const turn = out.message!.turn!;
    expect(turn.status).toBe('truncated');
    expect(turn.warnings).toEqual([expect.stringContaining('maximum time (2 s)')]);
    expect(out.message!.content).toMatch(/^a a a /);
  });

  it('marks an answer the server ended with done_reason "length" as truncated', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'The client retries three' }], doneReason: 'length' });
    const out = await bench.ask('How often does the client retry?');
    const warnings = [expect.stringContaining('num_predict 8192')];
    expect(out.message!.turn).toMatchObject({ status: 'truncated', warnings });
  });

  it('marks a turn whose stream had unreadable lines as incomplete, keeping the readable text', async () => {
    bench = await startChatBench();
    const broken = { raw: '{"message": {"content": "ti' };
    bench.ollama.onChat({ chunks: [{ content: 'Three ' }, broken, { content: 'times [1].' }] });
    const out = await bench.ask('How often does the client retry?');
    expect(out.end).toBe('answer.done');
    expect(out.message!.content).toBe('Three times [1].');
    expect(out.message!.turn).toMatchObject({
      status: 'incomplete',
      warnings: [expect.stringMatching(/^1 line\(s\) of the model server's answer could not be read/)],
    });
  });

  it('gives a turn whose every round was a tool call the decision no_answer and says so', async () => {
    bench = await startChatBench({ chat: { maxRounds: 2 } });
    const call = { toolCalls: [{ name: 'kb_search', arguments: { query: 'retry' } }] };
    bench.ollama.onChat({ chunks: [call] });
    bench.ollama.onChat({ chunks: [call] });
    const out = await bench.ask('How often does the client retry?');
    expect(out.end).toBe('answer.done');
    expect(out.message!.content).toBe('');
    const done = out.events.at(-1)!.payload as { decision: string };
    expect(done.decision).toBe('no_answer');
    expect(out.message!.turn).toMatchObject({ status: 'complete', decision: 'no_answer' });
    const why = expect.stringContaining('no answer: it spent its 2 round(s) calling tools');
    expect(out.message!.turn!.warnings).toEqual([why]);
  });

  it('rejects a second chat.send with a running turn id, and the first stays cancellable', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: words(100), delayMs: 20 });
    const b = bench;
    const out = await bench.ask('What is the retry policy?', {
      during: async (turnId) => {
        const again = await b.sift.invoke('chat.send', { kb: b.kbId, message: 'Again?', turnId });
        const error = { code: 'conflict', message: expect.stringContaining(turnId) };
        expect(again).toMatchObject({ ok: false, error });
        expect(await b.sift.invoke('chat.cancel', { turnId })).toEqual({ ok: true, value: { cancelled: true } });
      },
    });
    expect(out.message!.turn!.status).toBe('cancelled');
    const stored = await bench.sift.invoke('conversations.get', { id: out.conversationId });
    // The rejected send stored nothing: one question, one answer.
    expect(stored).toMatchObject({ ok: true, value: { messages: [{ role: 'user' }, { role: 'assistant' }] } });
  });
});
