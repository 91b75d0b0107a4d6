/**
 * Follow-up rewriting and the per-message depth in a real chat turn, against the Ollama test server: the rewritten
 * query in `search.started`, the turn's info and the retrieval log; the key-terms fallback without a model; the
 * depth's enhancements and their figures on the stored turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockChatReply } from '../testing/ollama-mock';
import { enhanceArgsOf } from './agent';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

function logLines(b: ChatBench): Record<string, any>[] {
  const dir = path.join(b.dataDir, 'logs', 'retrieval');
  return fs.readdirSync(dir).flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
}

/** Answers each helper prompt by what its system prompt asks; anything else is the answer of the turn. */
function helpers(answer: string, rerank = '1'): (body: any) => MockChatReply {
  return (body) => {
    const system: string = body.messages[0].content;
    if (/standalone search query/.test(system)) return { chunks: [{ content: 'retry policy: how long does the client wait between attempts' }] };
    if (/different search queries/.test(system)) return { chunks: [{ content: 'waiting time between retries\nretry interval' }] };
    if (/short passage/.test(system)) return { chunks: [{ content: 'The client waits two seconds before it retries.' }] };
    if (/rank passages/.test(system)) return { chunks: [{ content: rerank }] };
    return { chunks: [{ content: answer }] };
  };
}

describe('follow-up rewriting in a chat turn', () => {
  it('searches the model\'s standalone rewrite, and shows it in search.started, the turn info and the retrieval log', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const first = await bench.ask('How often does the client retry?');
    bench.ollama.onChat(helpers('Two seconds [1].'));
    const out = await bench.ask('And how long does it wait?', { conversationId: first.conversationId });
    const started = out.events.find((e) => e.event === 'search.started')!.payload;
    expect(started).toEqual({
      turnId: out.turnId, query: 'retry policy: how long does the client wait between attempts', rewrittenFrom: 'And how long does it wait?',
    });
    const turn = out.message!.turn!;
    expect(turn.query).toEqual({ text: started.query, rewrittenFrom: 'And how long does it wait?', via: 'model' });
    expect(turn.warnings).toBeUndefined();
    expect(turn.passages[0]!.pagePath).toBe('wiki/runbook.md');
    // The rewrite was one small request that saw the earlier turn; the first turn searched its message as typed.
    const rewrite = bench.ollama.requests.filter((r) => r.path === '/api/chat')[1]!.body;
    expect(rewrite.options).toEqual({ num_predict: 80, temperature: 0 });
    expect(rewrite.messages[1].content).toContain('User: How often does the client retry?\nAssistant: Three times [1].');
    const lines = logLines(bench);
    expect(lines[0]).toMatchObject({ query: 'How often does the client retry?', rewrittenFrom: null, rewrittenVia: null });
    expect(lines[1]).toMatchObject({ query: started.query, rewrittenFrom: 'And how long does it wait?', rewrittenVia: 'model' });
  });

  it('without a model adds the previous question\'s key terms, and the turn says so', async () => {
    bench = await startChatBench({ ollamaDown: true });
    const first = await bench.ask('How often does the client retry?');
    const out = await bench.ask('And on api-gateway?', { conversationId: first.conversationId });
    const started = out.events.find((e) => e.event === 'search.started')!.payload;
    expect(started.query).toBe('And on api-gateway? often client retry');
    expect(started.rewrittenFrom).toBe('And on api-gateway?');
    expect(started.note).toMatch(/not rewritten by the model \(no model \(Ollama is not reachable/);
    const turn = out.message!.turn!;
    expect(turn.query).toMatchObject({ via: 'terms', rewrittenFrom: 'And on api-gateway?' });
    expect(turn.warnings).toContain(started.note);
  }, 30_000);
});

describe('the per-message depth', () => {
  it('deep runs multi-query, HyDE and LLM rerank, with the figures on the turn and in the log', async () => {
    bench = await startChatBench();
    bench.ollama.onChat(helpers('Two seconds [1].', '2, 1'));
    const out = await bench.ask('How long does the client wait between attempts?', { depth: 'deep' });
    const turn = out.message!.turn!;
    expect(turn.depth).toBe('deep');
    expect(turn.enhance!.applied).toEqual({ rewrite: true, multiQuery: 3, hyde: true, rerank: 'llm' });
    expect(turn.enhance!.probes.map((p) => p.kind)).toEqual(['query', 'multi-query', 'multi-query', 'hyde']);
    expect(turn.enhance!.rerank).toMatchObject({ kind: 'llm', fallback: null });
    expect(turn.passages[0]!.rerankPosition).toBe(1);
    expect(turn.passages[0]!.probes!.length).toBeGreaterThan(0);
    const line = logLines(bench)[0]!;
    expect(line.depth).toBe('deep');
    expect(line.enhance.probes.map((p: { kind: string }) => p.kind)).toEqual(['query', 'multi-query', 'multi-query', 'hyde']);
    expect(line.results[0]).toMatchObject({ rerankPosition: 1, probes: expect.any(Array) });
  });

  it('quick asks the model for nothing but the answer', async () => {
    bench = await startChatBench();
    bench.ollama.onChat(helpers('Two seconds [1].'));
    const out = await bench.ask('How long does the client wait between attempts?', { depth: 'quick' });
    expect(out.message!.turn!.enhance).toMatchObject({ applied: { multiQuery: 1, hyde: false, rerank: null }, notes: [] });
    expect(out.message!.turn!.enhance!.probes).toHaveLength(1);
    expect(bench.ollama.requests.filter((r) => r.path === '/api/chat')).toHaveLength(1);
  });
});

describe('the model\'s own enhancement arguments of kb_search', () => {
  it.each([
    [{ query: 'q', multiQuery: 3, hyde: true, rerank: true }, { multiQuery: 3, hyde: true, rerank: 'llm' }],
    [{ query: 'q', rerank: false }, { rerank: null }],
    [{ query: 'q', multiQuery: '3', hyde: 'yes' }, undefined],
    [{ query: 'q', multiQuery: 1.5 }, undefined],
  ])('reads %j', (args, expected) => {
    expect(enhanceArgsOf(args)).toEqual(expected);
  });
});
