/**
 * A reasoning model's thinking (issue #27): whether it comes as Ollama's `thinking`, `<think>` blocks in the text,
 * the orphan `</think>` of templates that open the tag in the prompt, or the OpenAI-compatible `reasoning_content` /
 * `reasoning` fields, it is kept with the answer (with how long it took), never in the answer, and in exports only
 * when asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat-models';
import type { MockChatReply } from '../testing/ollama-mock';
import type { MockOpenAiReply } from '../testing/openai-mock';
import { startChatBench, type BenchProvider, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const ANSWER = 'The default timeout is 30 seconds [1].';
const PLAN = 'The user asks about the timeout. Passage 1 says 30 seconds.';

/** Each way a server sends reasoning, with the provider that sends it so. */
const CASES: [string, BenchProvider, MockChatReply & MockOpenAiReply][] = [
  ['Ollama `thinking`', 'ollama', { chunks: [{ thinking: 'The user asks about ' }, { thinking: 'the timeout. Passage 1 says 30 seconds.' }, { content: ANSWER }] }],
  ['Ollama `<think>` text', 'ollama', { chunks: [{ content: `<think>${PLAN.slice(0, 9)}` }, { content: `${PLAN.slice(9)}</th` }, { content: `ink>\n${ANSWER}` }] }],
  ['an orphan `</think>` on Ollama', 'ollama', { chunks: [{ content: PLAN.slice(0, 20) }, { content: PLAN.slice(20) }, { content: '</think>\n\n' }, { content: ANSWER }] }],
  ['OpenAI `reasoning_content`', 'openai', { chunks: [{ thinking: PLAN }, { content: ANSWER }] }],
  ['OpenAI `reasoning`', 'openai', { chunks: [{ thinking: PLAN }, { content: ANSWER }], reasoningField: 'reasoning' }],
  ['OpenAI `<think>` in content', 'openai', { chunks: [{ thinking: PLAN }, { content: ANSWER }], thinkTags: true }],
  ['an orphan `</think>` on an OpenAI-compatible server', 'openai', { chunks: [{ content: PLAN }, { content: '</think>' }, { content: ANSWER }] }],
];

describe('a reasoning model', () => {
  it.each(CASES)('%s: the reasoning is kept with the answer, never in it', async (_name, provider, reply) => {
    bench = await startChatBench({ provider });
    bench.server.onChat(reply);
    const out = await bench.ask('What is the default timeout for E_CONN_RESET?');
    expect(out.end).toBe('answer.done');
    expect(out.message!.content.trim()).toBe(ANSWER);
    expect(out.message!.turn!.thinking!.text.trim()).toBe(PLAN);
    expect(out.message!.turn!.citations).toMatchObject([{ number: 1, valid: true }]);
    // What streamed to clients adds up to the same: tokens, less what thinking took back.
    let streamed = '';
    for (const { event, payload } of out.events) {
      if (event === 'answer.token') streamed += payload.text as string;
      if (event === 'answer.thinking' && payload.takesBack) streamed = streamed.slice(0, -(payload.takesBack as number));
    }
    expect(streamed.trim()).toBe(ANSWER);
    const stored = await bench.sift.invoke('conversations.get', { id: out.conversationId });
    const messages = stored.ok ? (stored.value as { messages: ChatMessage[] }).messages : [];
    expect(messages[1]!.turn!.thinking!.text.trim()).toBe(PLAN);
  });

  it('records how long it thought, and a model that shows no reasoning has no thinking', async () => {
    bench = await startChatBench();
    bench.server.onChat({ chunks: [{ thinking: 'one ' }, { thinking: 'two ' }, { thinking: 'three' }, { content: ANSWER }], delayMs: 120 });
    const out = await bench.ask('What is the default timeout for E_CONN_RESET?');
    expect(out.message!.turn!.thinking!.ms).toBeGreaterThanOrEqual(200);
    bench.server.onChat({ chunks: [{ content: ANSWER }] });
    const plain = await bench.ask('And the retry policy?', { conversationId: out.conversationId });
    expect(plain.message!.turn!.thinking).toBeUndefined();
  });

  it('exports leave the reasoning out unless asked', async () => {
    bench = await startChatBench();
    bench.server.onChat({ chunks: [{ thinking: PLAN }, { content: ANSWER }] });
    const out = await bench.ask('What is the default timeout for E_CONN_RESET?');
    const args = { conversationId: out.conversationId, format: 'md' as const };
    const render = async (more: object) => {
      const result = await bench!.sift.invoke('export.render', { ...args, ...more });
      return result.ok ? (result.value as { content: string }).content : result.error.message;
    };
    expect(await render({})).not.toContain('Passage 1 says');
    expect(await render({ includeThinking: true })).toMatch(/> \*\*The model's reasoning\*\* \(\d+ s\)\n>\n> The user asks about the timeout/);
    expect(await render({ format: 'html', includeThinking: true })).toContain('<blockquote>');
  });
});
