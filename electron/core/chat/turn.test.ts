import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BENCH_PROVIDER_NAME, eventNames, startChatBench, type ChatBench } from './testing/chat-fixture';
import { CODE_DOCS } from './testing/code-docs';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

/** The request bodies the mock Ollama received for /api/chat. */
function chatRequests(b: ChatBench) {
  return b.ollama.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as { messages: { role: string; content: string }[]; tools?: unknown[]; think?: boolean; options?: Record<string, unknown> });
}

// The turn has one code path: these run against the built-in Ollama and an OpenAI-compatible provider alike.
describe.each(['ollama', 'openai'] as const)('a chat turn on %s', (provider) => {
  it('searches, streams tokens and ends with validated citations, in the contract order', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ content: '默认超时是 30 秒' }, { content: ' [1]。' }] });
    const out = await bench.ask('E_CONN_RESET 的默认超时是多少？');
    expect(eventNames(out)).toEqual(['turn.started', 'search.started', 'search.done', 'answer.token', 'answer.done']);
    const done = out.events.at(-1)!.payload as { citations: { number: number; valid: boolean }[]; references: { pagePath: string }[]; decision: string };
    expect(done.citations).toMatchObject([{ number: 1, valid: true }]);
    expect(done.references[0]!.pagePath).toBe('wiki/runbook.md');
    expect(done.decision).toBe('answered');
    expect(out.message!.content).toBe('默认超时是 30 秒 [1]。');
    // The passages went to the model in a hidden context block, numbered, with the page path.
    const sent = bench.chatRequests()[0]!;
    const user = sent.messages.at(-1)!;
    expect(user.content).toMatch(/<knowledge_base_passages>\n\[1\] \(wiki\/runbook\.md/);
    expect(user.content).toMatch(/Question: E_CONN_RESET 的默认超时是多少？$/);
    expect(sent.tools).toHaveLength(2);
    // Ollama gets the context window and answer length as options; an OpenAI-compatible server, max_tokens.
    if (provider === 'ollama') expect(sent.body.options).toMatchObject({ num_ctx: 8192, num_predict: 8192 });
    else expect(sent.body).toMatchObject({ max_tokens: 8192 });
    // The stored conversation has both messages; the assistant's carries the turn.
    const conv = await bench.sift.invoke('conversations.get', { id: out.conversationId });
    const answered = { status: 'complete', searched: true, provider: provider === 'ollama' ? 'ollama' : BENCH_PROVIDER_NAME };
    expect(conv).toMatchObject({ ok: true, value: { messages: [{ role: 'user' }, { role: 'assistant', turn: answered }] } });
  });

  it('does not search for a greeting, and emits no search events', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ content: '你好！有什么可以帮你？' }] });
    const out = await bench.ask('你好啊！');
    expect(eventNames(out)).toEqual(['turn.started', 'answer.token', 'answer.done']);
    expect(out.message!.turn).toMatchObject({ searched: false, trigger: 'greeting', passages: [] });
  });

  it('runs kb_search when the model calls it, appending passages with continued numbering', async () => {
    bench = await startChatBench({ provider, chat: { topK: 1 } });
    bench.server.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: { query: 'tomato soup garlic' } }, { name: 'kb_search', arguments: { query: 'E_CONN_RESET' } }] }] });
    bench.server.onChat({ chunks: [{ content: 'Simmer with garlic [2].' }] });
    const out = await bench.ask('How long does the retry policy wait between attempts?');
    const names = eventNames(out);
    expect(names.slice(0, 5)).toEqual(['turn.started', 'search.started', 'search.done', 'tool.called', 'tool.result']);
    expect(names.slice(-2)).toEqual(['answer.token', 'answer.done']);
    const turn = out.message!.turn!;
    expect(turn.passages.length).toBeGreaterThan(1);
    const cooking = turn.passages.findIndex((p) => p.pagePath === 'wiki/cooking.md');
    expect(cooking).toBeGreaterThan(0);
    // The tool's answer reached the model, numbered after the first search's passages.
    const toolMessage = bench.chatRequests()[1]!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toContain(`[${cooking + 1}] (wiki/cooking.md`);
    // A passage the turn already has keeps its number instead of being added twice.
    const second = bench.chatRequests()[1]!.messages.filter((m) => m.role === 'tool')[1]!;
    expect(second.content).toMatch(/^\[\d+\] \(already given above: wiki\/runbook\.md\)/);
    expect(new Set(turn.passages.map((p) => `${p.pagePath}:${p.start}`)).size).toBe(turn.passages.length);
  });

  it.each([
    ['malformed', '{"query": "tomato', /malformed/],
    ['not an object', '["tomato"]', /not_object/],
  ])('answers %s tool arguments with a retry hint', async (_label, raw, summary) => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: raw }] }] });
    bench.server.onChat({ chunks: [{ content: 'I could not search.' }] });
    const out = await bench.ask('What is the retry policy?');
    const result = out.events.find((e) => e.event === 'tool.result')!.payload;
    expect(result).toMatchObject({ name: 'kb_search', ok: false });
    expect(result.summary).toMatch(summary);
    const hint = bench.chatRequests()[1]!.messages.find((m) => m.role === 'tool')!.content;
    expect(hint).toContain('kb_search');
    expect(hint).toContain('{"query"');
  });

  it('takes the first object of concatenated arguments', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: '{"query":"tomato soup"}{"query":"retry"}' }] }] });
    bench.server.onChat({ chunks: [{ content: 'Done.' }] });
    const out = await bench.ask('What is the retry policy?');
    expect(out.events.find((e) => e.event === 'tool.result')!.payload).toMatchObject({ ok: true });
    expect(out.message!.turn!.passages.some((p) => p.pagePath === 'wiki/cooking.md')).toBe(true);
  });

  it('keeps thinking out of the answer and passes the think switch', async () => {
    bench = await startChatBench({ provider, chat: { think: false } });
    bench.server.onChat({ chunks: [{ thinking: 'let me think' }, { content: 'Three times [1].' }] });
    const out = await bench.ask('How often does the client retry?');
    expect(out.message!.content).toBe('Three times [1].');
    if (provider === 'ollama') expect(bench.chatRequests()[0]!.body.think).toBe(false);
  });

  it('fails with llm_error on HTTP 500 and keeps nothing fake', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [], status: 500, error: 'model runner crashed' });
    const out = await bench.ask('What is the retry policy?');
    expect(out.end).toBe('answer.failed');
    expect(out.events.at(-1)!.payload).toMatchObject({ code: 'llm_error' });
    expect(out.events.at(-1)!.payload.message).toMatch(/model runner crashed/);
  });

  it('keeps the partial answer when the connection is cut mid-stream', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ content: 'The client retries ' }, { content: 'three times ' }, { content: 'never sent' }], cutAfter: 2 });
    const out = await bench.ask('What is the retry policy?');
    expect(out.end).toBe('answer.failed');
    expect(out.message).toMatchObject({ content: 'The client retries three times ', turn: { status: 'failed' } });
    const stored = await bench.sift.invoke('conversations.get', { id: out.conversationId });
    expect(stored.ok && (stored.value as { messages: { content: string }[] }).messages[1]!.content).toBe('The client retries three times ');
  });

  it('times out on a stalled server instead of hanging', async () => {
    bench = await startChatBench({ provider, chat: { idleTimeoutMs: 300, connectTimeoutMs: 300 } });
    bench.server.onChat({ chunks: [], stall: true });
    const t = Date.now();
    const out = await bench.ask('What is the retry policy?');
    expect(out.events.at(-1)!.payload).toMatchObject({ code: 'timeout' });
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('stops on chat.cancel and keeps the partial answer', async () => {
    bench = await startChatBench({ provider });
    const tokens = Array.from({ length: 50 }, (_, i) => ({ content: `word${i} ` }));
    bench.server.onChat({ chunks: tokens, delayMs: 30 });
    const b = bench;
    const out = await bench.ask('What is the retry policy?', {
      during: async (turnId) => {
        await new Promise((r) => setTimeout(r, 250));
        expect(await b.sift.invoke('chat.cancel', { turnId })).toEqual({ ok: true, value: { cancelled: true } });
      },
    });
    expect(out.end).toBe('answer.done');
    expect(out.message!.turn!.status).toBe('cancelled');
    expect(out.message!.content).toMatch(/^word0 word1 /);
    expect(out.message!.content).not.toContain('word49');
    await expect.poll(() => bench!.server.requests.filter((r) => r.body?.messages).every((r) => (r as { closedByClient?: boolean }).closedByClient)).toBe(true);
    expect(await bench.sift.invoke('chat.cancel', { turnId: out.turnId })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it('answers extractively, with citations, when the model server is down', async () => {
    bench = await startChatBench({ provider, ollamaDown: true });
    const out = await bench.ask('What is the retry policy?');
    expect(eventNames(out)).toEqual(['turn.started', 'search.started', 'search.done', 'answer.token', 'answer.done']);
    const turn = out.message!.turn!;
    expect(turn.status).toBe('llm_unavailable');
    const why = provider === 'ollama'
      ? /No language model is running \(Ollama is not reachable at `http:\/\/127\.0\.0\.1:9`\)/
      : /No language model is running \(lm-box is not reachable at `http:\/\/127\.0\.0\.1:9\/v1`\)/;
    expect(out.message!.content).toMatch(why);
    // The built-in Ollama gets its commands; another provider's server is the person's own to start.
    expect(out.message!.content.match(/`ollama serve`/g)?.length ?? 0).toBe(provider === 'ollama' ? 1 : 0);
    expect(turn.citations.length).toBeGreaterThan(0);
    expect(turn.citations.every((c) => c.valid)).toBe(true);
    expect(turn.references[0]!.pagePath).toBe('wiki/runbook.md');
    const status = await bench.sift.invoke('llm.status', {});
    expect(status).toMatchObject({ ok: true, value: { reachable: false } });
  });

  it('sends the conversation history on the next turn', async () => {
    bench = await startChatBench({ provider });
    bench.server.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const first = await bench.ask('How often does the client retry?');
    // A follow-up is first rewritten into a standalone query (one short request), then answered.
    bench.server.onChat({ chunks: [{ content: 'How long does the client wait between retries?' }] });
    bench.server.onChat({ chunks: [{ content: 'Two seconds [1].' }] });
    await bench.ask('And how long does it wait?', { conversationId: first.conversationId });
    const second = bench.chatRequests()[2]!.messages.map((m) => [m.role, m.content.slice(0, 30)]);
    expect(second).toEqual([
      ['system', expect.any(String)],
      ['user', 'How often does the client retr'],
      ['assistant', 'Three times [1].'],
      ['user', expect.stringContaining('<knowledge_base_passages>')],
    ]);
  });

});

describe('a chat turn', () => {
  it('counts the search budget before each search (the automatic search included)', async () => {
    bench = await startChatBench({ chat: { searchBudget: 2, maxRounds: 5 } });
    for (const q of ['tomato', 'garlic', 'blend']) bench.ollama.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: { query: q } }] }] });
    bench.ollama.onChat({ chunks: [{ content: 'Answer.' }] });
    const out = await bench.ask('What is the retry policy?');
    const results = out.events.filter((e) => e.event === 'tool.result').map((e) => e.payload.summary);
    expect(results[0]).toMatch(/passage/);
    expect(results.slice(1)).toEqual(['search budget spent', 'search budget spent']);
    const last = chatRequests(bench)[3]!.messages.at(-1)!;
    expect(last.content).toMatch(/search budget for this question is spent \(2 searches\)/);
  });

  it('marks out-of-range citations invalid and checks attributed quotes', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: '“默认超时是 30 秒” [1]，而“超时是 90 秒” [1]，另见 [9]。' }] });
    const out = await bench.ask('E_CONN_RESET 超时多少秒？');
    const c = out.message!.turn!.citations;
    expect(c.map((x) => [x.number, x.valid, x.quoteVerified])).toEqual([
      [1, true, true],
      [1, true, false],
      [9, false, null],
    ]);
    expect(out.message!.turn!.references.map((r) => r.number)).toEqual([1]);
  });

  it('tells the model when nothing matched, and refuses', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: '知识库里没有相关内容。' }] });
    await bench.sift.invoke('folder.remove', { kb: bench.kbId, path: (await bench.sift.invoke('folder.list', { kb: bench.kbId }) as { ok: true; value: { path: string }[] }).value[0]!.path });
    await bench.sift.ingest(bench.kbId);
    const out = await bench.ask('量子计算的发展历史');
    expect(eventNames(out)).toEqual(['turn.started', 'search.started', 'search.empty', 'answer.token', 'answer.done']);
    expect(out.message!.turn!.decision).toBe('refused');
    expect(chatRequests(bench)[0]!.messages[0]!.content).toMatch(/nothing relevant.*do not ask the user to paste/s);
  });

  it('goes on as plain chat when search fails, and says so', async () => {
    bench = await startChatBench();
    const { openDatabase } = await import('../store/open');
    const { kbMigrations } = await import('../store/migrations/kb');
    const file = path.join(bench.dataDir, 'kbs', `${bench.kbId}.sqlite`);
    const raw = openDatabase(file, kbMigrations, 'test', { vectors: true });
    raw.exec('DROP TABLE chunk_vectors');
    raw.close();
    bench.ollama.onChat({ chunks: [{ content: 'The search failed, so from general knowledge: …' }] });
    const out = await bench.ask('What is the retry policy?');
    expect(eventNames(out)).toEqual(['turn.started', 'search.started', 'search.failed', 'answer.token', 'answer.done']);
    expect(out.events[2]!.payload.message).toMatch(/vector search failed/);
    expect(out.message!.turn!.searchError).toMatch(/vector search failed/);
    expect(chatRequests(bench)[0]!.messages[0]!.content).toMatch(/Searching the knowledge base failed/);
    expect(chatRequests(bench)[0]!.messages[0]!.content).not.toMatch(/nothing relevant/);
  });

  it('cites every passage when the top one begins inside a code fence; exports a footnote each', async () => {
    bench = await startChatBench({ ollamaDown: true, docs: CODE_DOCS });
    const out = await bench.ask('safeParse vs parse');
    const turn = out.message!.turn!;
    expect(turn.status).toBe('llm_unavailable');
    // The top passage is cut inside a code block: its first fence line closes a block it never opened.
    expect(turn.passages[0]!.text).toMatch(/^[^`]*\n```\n/);
    expect(turn.passages.length).toBe(Object.keys(CODE_DOCS).length);
    const numbers = turn.passages.map((_p, i) => i + 1);
    expect(turn.citations.map((c) => [c.number, c.valid])).toEqual(numbers.map((n) => [n, true]));
    expect(turn.references.map((r) => r.number)).toEqual(numbers);
    const done = out.events.at(-1)!.payload as { references: { number: number }[] };
    expect(done.references.map((r) => r.number)).toEqual(numbers);
    const render = async (format: 'md' | 'html') => {
      const args = { conversationId: out.conversationId, messageId: out.message!.id, format };
      const r = await bench!.sift.invoke('export.render', args);
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { content: string }).content;
    };
    const md = await render('md');
    const html = await render('html');
    for (const n of numbers) {
      expect(md).toContain(`[^${n}]:`);
      expect(md).toContain(`[^${n}]\n`);
      expect(html).toContain(`<li id="user-content-fn-${n}">`);
      expect(html).toContain(`href="#user-content-fn-${n}"`);
    }
  });

  it('tells the model, and the search event, when an identifier of the question is nowhere in the knowledge base', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'E_CONN_TIMEOUT is not in your notes.' }] });
    const out = await bench.ask('How does the client retry after E_CONN_TIMEOUT?');
    const done = out.events.find((e) => e.event === 'search.done')!;
    expect(done.payload.noExactMatch).toEqual(['E_CONN_TIMEOUT']);
    const system = chatRequests(bench)[0]!.messages[0]!.content;
    expect(system).toMatch(/no exact occurrence of "E_CONN_TIMEOUT"/);
    expect(system).toMatch(/never present a passage about something else as if it were about "E_CONN_TIMEOUT"/);
    // An identifier that is there is not named.
    bench.ollama.onChat({ chunks: [{ content: 'Check the gateway [1].' }] });
    const held = await bench.ask('What causes E_CONN_RESET?');
    expect(held.events.find((e) => e.event === 'search.done')!.payload.noExactMatch).toEqual([]);
    expect(chatRequests(bench)[1]!.messages[0]!.content).not.toMatch(/no exact occurrence/);
  });

  it('says in the extractive answer that an identifier of the question has no exact match', async () => {
    bench = await startChatBench({ ollamaDown: true });
    const out = await bench.ask('How does the client retry after E_CONN_TIMEOUT?');
    expect(out.message!.content).toContain('There is no exact match for `E_CONN_TIMEOUT` in this knowledge base');
    expect(out.message!.turn!.citations.length).toBeGreaterThan(0);
    const zh = await bench.ask('E_CONN_TIMEOUT 之后客户端怎么重试？');
    expect(zh.message!.content).toContain('知识库中没有 `E_CONN_TIMEOUT` 的完全匹配');
  }, 60_000);

  it('writes one retrieval-log line per turn', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const out = await bench.ask('How often does the client retry? [[wiki/api.md]]');
    const dir = path.join(bench.dataDir, 'logs', 'retrieval');
    const [file] = fs.readdirSync(dir);
    expect(file).toMatch(/^\d{4}-\d{2}-\d{2}\.jsonl$/);
    const lines = fs.readFileSync(path.join(dir, file!), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      conversationId: out.conversationId,
      kbId: bench.kbId,
      messagePreview: 'How often does the client retry? [[wiki/api.md]]',
      triggered: true,
      trigger: 'explicit_ref',
      explicitRefs: ['wiki/api.md'],
      error: null,
    });
    expect(lines[0].results[0]).toMatchObject({ path: 'wiki/api.md', hitReason: 'explicit' });
    expect(lines[0].contextChars).toBeGreaterThan(0);
    expect(lines[0].timings.totalMs).toBeGreaterThan(0);
  });

});
