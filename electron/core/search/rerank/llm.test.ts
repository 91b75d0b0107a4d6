import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../llm/ollama-client';
import { startMockOllama, type MockOllama } from '../../testing/ollama-mock';
import { completerOf } from '../enhance/completer';
import { completeOrder, llmReranker, parseRanking } from './llm';

let server: MockOllama | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('parseRanking: strict ranked indices', () => {
  it.each([
    ['3, 1, 2', 3, { order: [2, 0, 1] }],
    ['[2] [1]', 3, { order: [1, 0] }],
    ['2，3、1', 3, { order: [1, 2, 0] }],
    ['[1, 3]', 3, { order: [0, 2] }],
  ])('reads %j', (reply, n, expected) => {
    expect(parseRanking(reply, n)).toEqual(expected);
  });
  it.each([
    ['', 3, /empty/],
    ['Passage 2 is best', 3, /"Passage" is not a passage number/],
    ['2.5, 1', 3, /"2.5" is not a passage number/],
    ['4, 1', 3, /4 is not between 1 and 3/],
    ['0, 1', 3, /0 is not between 1 and 3/],
    ['2, 1, 2', 3, /2 is named twice/],
    ['-1', 3, /"-1" is not a passage number/],
  ])('refuses %j', (reply, n, why) => {
    const parsed = parseRanking(reply, n);
    expect('invalid' in parsed && parsed.invalid).toMatch(why);
  });
  it('puts the ones left out after the ranked, in fused order', () => {
    expect(completeOrder([3, 1], 5)).toEqual([3, 1, 0, 2, 4]);
  });
});

describe('the LLM reranker through the Ollama test server', () => {
  const passages = ['tomato soup', 'retry policy: three times', 'gateway timeout 30 s', 'garden'];
  async function rerank(reply: string) {
    server = await startMockOllama();
    server.onChat({ chunks: [{ content: reply }] });
    const reranker = llmReranker(completerOf(createLlmClient({ host: server.url }), 'qwen3:4b'));
    return reranker.rerank('how often does it retry?', passages);
  }

  it('uses a valid ranking; left-out passages follow in fused order; shows the numbered passages to the model', async () => {
    const outcome = await rerank('2, 3');
    expect(outcome).toMatchObject({ kind: 'llm', order: [1, 2, 0, 3], fallback: null, scores: [null, null, null, null] });
    const sent = server!.requests.find((r) => r.path === '/api/chat')!.body;
    expect(sent.messages[1].content).toContain('Query: how often does it retry?');
    expect(sent.messages[1].content).toContain('[2] retry policy: three times');
  });

  it.each([
    ['malformed', 'The second passage is the best.', /not valid \("The" is not a passage number\)/],
    ['out of range', '2, 7', /not valid \(7 is not between 1 and 4\)/],
    ['duplicate', '2, 3, 2', /not valid \(2 is named twice\)/],
  ])('keeps the fused order with a visible flag for a %s reply', async (_label, reply, why) => {
    const outcome = await rerank(reply);
    expect(outcome.order).toEqual([0, 1, 2, 3]);
    expect(outcome.fallback).toMatch(why);
  });

  it('keeps the fused order when the model server fails', async () => {
    server = await startMockOllama();
    server.onChat({ chunks: [], status: 500, error: 'model crashed' });
    const reranker = llmReranker(completerOf(createLlmClient({ host: server.url }), 'qwen3:4b'));
    const outcome = await reranker.rerank('q', passages);
    expect(outcome.order).toEqual([0, 1, 2, 3]);
    expect(outcome.fallback).toMatch(/^the model failed: .*model crashed/);
  });
});
