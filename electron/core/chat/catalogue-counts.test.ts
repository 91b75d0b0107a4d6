/**
 * Catalogue answers say true things (issue #25 item 5): "N pages mention X (showing 12)" with N counted over the
 * whole knowledge base, only pages that hold the term whole listed (`pool_size`, not `pool` or `size`), and
 * a plain sentence when no page holds it as written. Real ingest and turn on a folder made here, with the
 * model down (extractive) and up (the list is built by code, the model is not asked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnInfo } from '../../../shared/chat-models';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

const DOCS: Record<string, string> = {
  'pool-config.md': '# Pool config\n\nSet pool_size to 10 for the worker pool.\n',
  'tuning.md': '# Tuning\n\nA larger `pool_size` helps under load; see POOL_SIZE in the env file.\n',
  'swimming.md': '# Swimming\n\nThe pool is fifty metres long and the water is warm.\n',
  'shoes.md': '# Shoes\n\nMy shoe size is 42 and the size chart is online.\n',
  'pool-size-talk.md': '# Threads\n\nThe pool size of the threads and the size of the pool both matter.\n',
  'limits.md': '# Limits\n\nmy_pool_size_max = 3 caps the workers.\n',
  'vector-zh.md': '# 检索\n\n向量检索很快，适合语义搜索。\n',
  'vector-words.md': '# 向量\n\n我们讨论向量，也讨论全文检索。\n',
  'ts-camel.md': '# Types\n\nWritten in TypeScript, with types.\n',
  'ts-lower.md': '# Lower\n\nThe typescript compiler checks it.\n',
  'ts-dotted.md': '# Dotted\n\nSee TypeScript.config for the options.\n',
  'ts-longer.md': '# Longer\n\nTypeScripts do not exist, and neither does type script.\n',
};
for (let i = 1; i <= 26; i++) {
  const n = String(i).padStart(2, '0');
  DOCS[`flux-${n}.md`] = `# Run ${n}\n\nRun ${n}: the flux-capacitor took ${i} gigawatts${' and held'.repeat(i % 5)}.\n`;
}

describe.each([true, false])('catalogue counts (model down: %s)', (down) => {
  let bench: ChatBench;
  beforeAll(async () => {
    bench = await startChatBench({ docs: DOCS, ollamaDown: down });
  }, 120_000);
  afterAll(async () => {
    await bench?.close();
  });

  const turnOf = (m: { turn?: unknown } | null) => m!.turn as TurnInfo;

  it('says how many pages mention the term in all, and how many it shows', async () => {
    const outcome = await bench.ask('which notes mention flux-capacitor?');
    const content = outcome.message!.content;
    expect(content).toMatch(/^26 pages mention “flux-capacitor” \(showing 12, /);
    const turn = turnOf(outcome.message);
    expect(turn.passages).toHaveLength(12);
    expect(new Set(turn.passages.map((p) => p.pagePath)).size).toBe(12);
    for (const p of turn.passages) expect(p.text).toContain('flux-capacitor');
    expect(turn.citations.map((c) => c.valid)).toEqual(Array(12).fill(true));
    expect(bench.ollama.requests.filter((r) => r.path === '/api/chat')).toHaveLength(0);
    // the progress step says the same: 26 found, 12 shown
    const done = outcome.events.find((e) => e.event === 'search.done')!.payload;
    expect(done.total).toBe(26);
    expect(done.paths).toHaveLength(12);
  });

  it('says it in Chinese for a Chinese question', async () => {
    const outcome = await bench.ask('哪些笔记提到了 flux-capacitor？');
    expect(outcome.message!.content).toMatch(/^知识库中有 26 个页面提到“flux-capacitor”（显示其中 12 个，/);
  });

  it('lists only pages that hold pool_size whole', async () => {
    const outcome = await bench.ask('Which notes mention pool_size?');
    const turn = turnOf(outcome.message);
    expect(turn.passages.map((p) => p.pagePath).sort()).toEqual(['wiki/pool-config.md', 'wiki/tuning.md']);
    expect(outcome.message!.content).toMatch(/^2 pages mention “pool\\?_size” \(most relevant first/);
    expect(outcome.message!.content).not.toContain('showing');
    expect(outcome.events.find((e) => e.event === 'search.done')!.payload.total).toBeUndefined();
  });

  it('counts a camelCase term however its case is written', async () => {
    const outcome = await bench.ask('Which notes mention TypeScript?');
    expect(outcome.message!.content).toMatch(/^3 pages mention “TypeScript”/);
    expect(turnOf(outcome.message).passages.map((p) => p.pagePath).sort()).toEqual(['wiki/ts-camel.md', 'wiki/ts-dotted.md', 'wiki/ts-lower.md']);
  });

  it('a Chinese term is held whole or not at all', async () => {
    const outcome = await bench.ask('哪些笔记提到了向量检索？');
    const turn = turnOf(outcome.message);
    expect(turn.passages.map((p) => p.pagePath)).toEqual(['wiki/vector-zh.md']);
    expect(outcome.message!.content).toMatch(/^知识库中有 1 个页面提到“向量检索”/);
  });

  it('says plainly when no page holds the term as written', async () => {
    const outcome = await bench.ask('Which notes mention pool_depth?');
    const content = outcome.message!.content;
    expect(content).toMatch(/^No page mentions “pool\\?_depth” as written; \d+ pages mention parts of it \(“pool”, “depth”/);
    const zh = await bench.ask('哪些笔记提到了 pool_depth？');
    expect(zh.message!.content).toMatch(/^没有页面原样提到“pool\\?_depth”；有 \d+ 个页面提到它的一部分（“pool”、“depth”/);
  });
});
