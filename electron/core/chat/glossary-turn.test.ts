/** The glossary in a chat turn: definitions of the question's terms quoted first and citable; `lookup_glossary`. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Passage } from '../../../shared/models';
import { GLOSSARY_ZH } from '../glossary/testing/fixtures';
import { DOCS, startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const GLOSSARY_DOCS = { ...DOCS, '术语表.md': GLOSSARY_ZH };
const RRF_ROW = '| RRF / 倒数排名融合 | Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。 |';

function chatRequests(b: ChatBench) {
  return b.ollama.requests
    .filter((r) => r.path === '/api/chat')
    .map((r) => r.body as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] });
}

describe('a chat turn with a glossary', () => {
  it('quotes the definition of a term the question names first, and the answer can cite it', async () => {
    bench = await startChatBench({ docs: GLOSSARY_DOCS });
    bench.ollama.onChat({ chunks: [{ content: 'RRF 的 k 是 60 [1]。' }] });
    const out = await bench.ask('倒数排名融合里的 k 取多少？');
    const sent = chatRequests(bench)[0]!;
    const user = sent.messages.at(-1)!.content;
    expect(user).toContain(`<knowledge_base_passages>\n[1] (wiki/术语表.md · 术语表 · 术语表 › 表格)\n${RRF_ROW}\n`);
    expect(sent.tools!.map((t) => t.function.name)).toEqual(['kb_search', 'read_page', 'lookup_glossary']);
    expect(sent.messages[0]!.content).toContain('lookup_glossary(term)');
    const turn = out.message!.turn!;
    expect(turn.passages[0]).toMatchObject({ pagePath: 'wiki/术语表.md', hitReason: 'glossary', text: RRF_ROW });
    // No other passage repeats the definition's span.
    const overlapping = turn.passages.slice(1).filter((p) => p.pagePath === 'wiki/术语表.md' && p.start < turn.passages[0]!.end && turn.passages[0]!.start < p.end);
    expect(overlapping).toEqual([]);
    expect(turn.citations).toMatchObject([{ number: 1, valid: true }]);
    expect(turn.references).toMatchObject([{ number: 1, pagePath: 'wiki/术语表.md', quote: RRF_ROW }]);
  });

  it('finds Latin terms on word boundaries only, and injects nothing for a question naming none', async () => {
    bench = await startChatBench({ docs: GLOSSARY_DOCS });
    bench.ollama.onChat({ chunks: [{ content: 'ok' }] });
    bench.ollama.onChat({ chunks: [{ content: 'ok' }] });
    const named = await bench.ask('How do MMR and bm25 differ?');
    expect(named.message!.turn!.passages.filter((p) => p.hitReason === 'glossary').map((p) => p.text.split('\n')[0])).toEqual([
      'MMR',
      '**BM25** (Okapi BM25, 词频排序): the keyword ranking function of the FTS5 index.',
    ]);
    const none = await bench.ask('How does the client retry a failed connection (MMRS)?');
    expect(none.message!.turn!.passages.filter((p) => p.hitReason === 'glossary')).toEqual([]);
  });

  it('answers lookup_glossary with the entry as a numbered passage the answer can cite', async () => {
    // One passage from the automatic search (the runbook's), so the glossary page is not among them yet.
    bench = await startChatBench({ docs: GLOSSARY_DOCS, chat: { topK: 1 } });
    bench.ollama.onChat({ chunks: [{ toolCalls: [{ name: 'lookup_glossary', arguments: { term: 'hyde' } }, { name: 'lookup_glossary', arguments: { term: 'tomato' } }] }] });
    bench.ollama.onChat({ chunks: [{ content: 'HyDE embeds a made-up passage [2].' }] });
    const out = await bench.ask('How long does the retry policy wait between attempts?');
    const turn = out.message!.turn!;
    const hyde = turn.passages.findIndex((p: Passage) => p.hitReason === 'glossary');
    expect(hyde).toBeGreaterThan(0);
    expect(turn.passages[hyde]!.text).toBe('**HyDE:** Hypothetical Document Embeddings, a made-up passage used as a vector probe.');
    const tools = chatRequests(bench)[1]!.messages.filter((m) => m.role === 'tool');
    expect(tools[0]!.content).toBe(`[${hyde + 1}] (wiki/术语表.md · 术语表 · 术语表 › 加粗)\n${turn.passages[hyde]!.text}`);
    expect(tools[1]!.content).toBe('The glossary has no entry for "tomato".');
    const results = out.events.filter((e) => e.event === 'tool.result').map((e) => e.payload);
    expect(results).toMatchObject([{ name: 'lookup_glossary', ok: true, summary: '1 entry' }, { name: 'lookup_glossary', ok: true, summary: 'not in the glossary' }]);
    expect(hyde).toBe(1);
    expect(turn.citations).toMatchObject([{ number: 2, valid: true }]);
    expect(turn.references).toMatchObject([{ number: 2, pagePath: 'wiki/术语表.md' }]);
  });

  it('quotes the definition first in the answer given without a model', async () => {
    bench = await startChatBench({ docs: GLOSSARY_DOCS, ollamaDown: true });
    const out = await bench.ask('What is HyDE?');
    const turn = out.message!.turn!;
    expect(turn.status).toBe('llm_unavailable');
    expect(turn.passages[0]).toMatchObject({ hitReason: 'glossary', pagePath: 'wiki/术语表.md' });
    expect(turn.references[0]!.quote).toContain('Hypothetical Document Embeddings');
  });

  it('offers no glossary tool in a knowledge base without a glossary', async () => {
    bench = await startChatBench();
    bench.ollama.onChat({ chunks: [{ content: 'ok' }] });
    await bench.ask('What is RRF?');
    expect(chatRequests(bench)[0]!.tools!.map((t) => t.function.name)).toEqual(['kb_search', 'read_page']);
    expect(chatRequests(bench)[0]!.messages[0]!.content).not.toContain('lookup_glossary');
  });
});
