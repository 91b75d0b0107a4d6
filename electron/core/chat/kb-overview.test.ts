/**
 * Whole-folder questions on a knowledge base with no README or overview file (issue #25 item 6): answered from
 * the digest overview when digests were written, else from an outline made by code (titles, top headings,
 * sizes, by folder), every line cited with its page's first chunk, bounded on a large folder. Real ingest and
 * turns on folders made here, with the model down and up (the outline is built by code; the model is not asked).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnInfo } from '../../../shared/chat-models';
import type { DigestStatus, PageDetail } from '../../../shared/models';
import type { MockChatReply } from '../testing/ollama-mock';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

const DOCS: Record<string, string> = {
  'guides/setup.md': '# Setup guide\n\nInstall the agent with the package manager.\n\n## Requirements\n\nLinux or macOS.\n\n## Install\n\nRun the installer.\n',
  'guides/upgrade.md': '# Upgrading\n\nRead the release notes first.\n',
  'notes/会议记录.md': '# 周会记录\n\n本周讨论了发布计划和测试安排。\n\n## 发布计划\n\n下周三发布。\n',
  'changelog.txt': 'Version 2.1 fixed the login timeout and added retries.\n',
};

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const turnOf = (m: { turn?: unknown } | null) => m!.turn as TurnInfo;
const chats = (b: ChatBench) => b.ollama.requests.filter((r) => r.path === '/api/chat').length;

describe('whole-folder questions without an overview file', () => {
  it.each([
    ['总结一下这个库', true, false],
    ["what's in here?", false, false],
    ['这个知识库里有什么', true, true],
    ['summarize this knowledge base', false, true],
  ])('%s gets an outline of the pages, each line cited (zh: %s, model down: %s)', async (question, zh, down) => {
    bench = await startChatBench({ docs: DOCS, ollamaDown: down });
    const outcome = await bench.ask(question);
    const content = outcome.message!.content;
    const turn = turnOf(outcome.message);
    expect(content).toMatch(zh ? /^这个知识库有 4 个页面，分布在 3 个文件夹。/ : /^This knowledge base has 4 pages in 3 folders\./);
    expect(content).not.toMatch(/nothing relevant|没有找到/i);
    expect(content).toContain(zh ? '**guides/** (2 个页面)' : '**guides/** (2 pages)');
    expect(content).toMatch(/\*\*Setup guide\*\* \(`wiki\/guides\/setup\.md`, \d+ B\) — Requirements · Install \[\d\]/);
    expect(content).toContain('**周会记录** (`wiki/notes/会议记录.md`');
    expect(content).toContain('发布计划');
    // Every line is cited, and every citation opens its page: the page's first chunk.
    expect(turn.passages.map((p) => p.pagePath).sort()).toEqual(['wiki/changelog.txt', 'wiki/guides/setup.md', 'wiki/guides/upgrade.md', 'wiki/notes/会议记录.md']);
    expect(turn.citations.map((c) => [c.number, c.valid])).toEqual([[1, true], [2, true], [3, true], [4, true]]);
    for (const [i, p] of turn.passages.entries()) {
      expect(p.start).toBe(0);
      const line = content.split('\n').find((l) => l.endsWith(`[${i + 1}]`))!;
      expect(line).toContain(`\`${p.pagePath}\``);
      const page = await bench.sift.invoke('pages.get', { kb: bench.kbId, path: p.pagePath });
      expect(page.ok && (page.value as PageDetail).text.slice(p.start, p.end)).toBe(p.text);
    }
    expect(chats(bench)).toBe(0);
  });

  it('is bounded on a large folder: says how many pages, shows 30, the largest of each folder in turn', async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 40; i++) docs[`big/page-${i}.md`] = `# Big ${i}\n\n${'word '.repeat(20 + i)}\n`;
    for (let i = 0; i < 3; i++) docs[`small/s-${i}.md`] = `# Small ${i}\n\nA short note.\n`;
    bench = await startChatBench({ docs, ollamaDown: true });
    const outcome = await bench.ask('What is in this knowledge base?');
    const content = outcome.message!.content;
    expect(content).toMatch(/^This knowledge base has 43 pages in 2 folders\. .*\(showing 30: the largest of each folder\)/);
    expect(content).toContain('**big/** (40 pages, showing 27)');
    expect(content).toContain('**small/** (3 pages)');
    expect(turnOf(outcome.message).passages).toHaveLength(30);
    // The largest page of the big folder comes first.
    expect(content).toMatch(/1\. \*\*Big 39\*\*/);
  });

  it('groups by top folder when the folders below are too many (a node_modules of packages)', async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 25; i++) docs[`pkgs/pkg-${i}/README.md`] = `# pkg-${i}\n\nPackage ${i}.\n\n## Install\n\nnpm i.\n\n## Usage\n\nUse it.\n`;
    docs['@scope/tool/README.md'] = '# Tool\n\n## API\n\nCalls.\n';
    bench = await startChatBench({ docs, ollamaDown: true });
    const content = (await bench.ask("what's in here?")).message!.content;
    expect(content).toMatch(/^This knowledge base has 26 pages in 2 folders\./);
    expect(content).toContain('**pkgs/** (25 pages)\n');
    expect(content).toContain('**@scope/** (1 page)');
    expect(content).toMatch(/\*\*Tool\*\* \(`wiki\/@scope\/tool\/README\.md`, \d+ B\) — API \[\d+\]/);
    expect(content).toMatch(/\*\*pkg-0\*\* \(`wiki\/pkgs\/pkg-0\/README\.md`, \d+ B\) — Install · Usage \[\d+\]/);
  });

  it('answers from the digest overview when digests were written', async () => {
    bench = await startChatBench({ docs: DOCS });
    const model = (body: { messages: { content: string }[] }): MockChatReply => {
      const page = /<page path="([^"]+)"/.exec(body.messages.at(-1)!.content)?.[1];
      if (!page) return { chunks: [{ content: '- The notes cover setup, upgrades and meeting notes [1][2].' }] };
      return { chunks: [{ content: `- About ${path.basename(page)} [1].` }] };
    };
    bench.ollama.onChat(model);
    const ended = new Promise<void>((resolve) => {
      const stop = bench!.sift.onEvent((event, payload) => {
        if (event !== 'digests.progress' || (payload as DigestStatus).state === 'running') return;
        stop();
        resolve();
      });
    });
    await bench.sift.invoke('digests.setEnabled', { kb: bench.kbId, enabled: true });
    await ended;

    bench.ollama.onChat({ chunks: [{ content: 'It covers setup, upgrades and meetings [1].' }] });
    const outcome = await bench.ask('总结一下这个库');
    const turn = turnOf(outcome.message);
    expect(turn.passages[0]).toMatchObject({ pagePath: 'wiki/_digest/overview.md', hitReason: 'kb_meta', start: 0 });
    const sent = bench.ollama.requests.filter((r) => r.path === '/api/chat').at(-1)!;
    expect(sent.body.messages.at(-1).content).toContain('The notes cover setup, upgrades and meeting notes');
    expect(outcome.message!.content).toBe('It covers setup, upgrades and meetings [1].');
    expect(turn.references[0]).toMatchObject({ number: 1, pagePath: 'wiki/_digest/overview.md' });
  });
});
