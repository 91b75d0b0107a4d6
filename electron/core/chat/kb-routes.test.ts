/**
 * Questions about the whole knowledge base through a real turn: an overview question quotes the root
 * README/overview pages first (hit reason kb_meta) to the model; a catalogue question ("which notes
 * mention X?") is answered by the list of pages, each with its best passage cited, with or without a model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnInfo } from '../../../shared/chat-models';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

const DOCS: Record<string, string> = {
  'README.md': '# Ops notes\n\nThis folder holds the runbooks of the payment gateway and the notes from incident reviews.\n',
  'runbook.md': '# 连接超时\n\n当出现 E_CONN_RESET 错误时，先检查 api-gateway 的超时设置，默认超时是 30 秒。\n',
  'incident.md': '# Incident 42\n\nThe payment service failed with E_CONN_RESET after the gateway upgrade; we rolled back.\n',
  'cooking.md': '# Tomato soup\n\nSimmer tomatoes with garlic for twenty minutes, then blend.\n',
};

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

describe('whole-folder questions', () => {
  it('an overview question puts the README first, as kb_meta, in what the model reads', async () => {
    bench = await startChatBench({ docs: DOCS });
    bench.ollama.onChat({ chunks: [{ content: 'It holds payment gateway runbooks [1].' }] });
    const outcome = await bench.ask('总结一下这个库');
    const turn = outcome.message!.turn as TurnInfo;
    expect(turn.passages[0]).toMatchObject({ pagePath: 'wiki/README.md', hitReason: 'kb_meta', start: 0 });
    const chat = bench.ollama.requests.find((r) => r.path === '/api/chat')!;
    const user = chat.body.messages.at(-1).content as string;
    expect(user.indexOf('This folder holds the runbooks')).toBeGreaterThan(-1);
    expect(turn.references[0]).toMatchObject({ number: 1, pagePath: 'wiki/README.md' });
  });

  it('an ordinary question does not get the README pushed in', async () => {
    bench = await startChatBench({ docs: DOCS });
    bench.ollama.onChat({ chunks: [{ content: 'Simmer twenty minutes [1].' }] });
    const outcome = await bench.ask('How long do I simmer the tomato soup?');
    const turn = outcome.message!.turn as TurnInfo;
    expect(turn.passages.some((p) => p.hitReason === 'kb_meta')).toBe(false);
    expect(turn.passages[0]?.pagePath).toBe('wiki/cooking.md');
  });

  it.each([false, true])('a catalogue question lists the pages that mention the topic, each cited (model down: %s)', async (down) => {
    bench = await startChatBench({ docs: DOCS, ollamaDown: down });
    const outcome = await bench.ask('Which of my notes mention E_CONN_RESET?');
    const turn = outcome.message!.turn as TurnInfo;
    const search = outcome.events.find((e) => e.event === 'search.started')!;
    expect(search.payload.query).toBe('E_CONN_RESET');
    const pages = turn.passages.map((p) => p.pagePath).sort();
    expect(pages).toEqual(['wiki/incident.md', 'wiki/runbook.md']);
    expect(outcome.message!.content).toMatch(/^2 pages mention “E\\_CONN\\_RESET”|^2 pages mention “E_CONN_RESET”/);
    expect(turn.citations.map((c) => [c.number, c.valid])).toEqual([[1, true], [2, true]]);
    expect(turn.references.map((r) => r.pagePath)).toEqual(turn.passages.map((p) => p.pagePath));
    expect(bench.ollama.requests.filter((r) => r.path === '/api/chat')).toHaveLength(0);
  });

  it('a catalogue question whose words occur nowhere goes the ordinary way, to the model', async () => {
    bench = await startChatBench({ docs: DOCS });
    bench.ollama.onChat({ chunks: [{ content: 'None of your notes mention Kubernetes.' }] });
    const outcome = await bench.ask('Which notes mention kubernetes?');
    expect(outcome.message!.content).toBe('None of your notes mention Kubernetes.');
    expect(bench.ollama.requests.filter((r) => r.path === '/api/chat')).toHaveLength(1);
  });

  it('answers a Chinese catalogue question in Chinese', async () => {
    bench = await startChatBench({ docs: DOCS });
    const outcome = await bench.ask('哪些笔记提到了超时？');
    expect(outcome.message!.content).toMatch(/^知识库中有 \d+ 个页面提到“超时”/);
    expect((outcome.message!.turn as TurnInfo).passages[0]?.pagePath).toBe('wiki/runbook.md');
  });
});
