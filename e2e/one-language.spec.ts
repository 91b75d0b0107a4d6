/**
 * One language at a time (issue #27, item 6): the real UI in Chinese, driven through the states that show the core's
 * own messages — a file that failed to index, a follow-up the model could not rewrite, an answer cut at the model's
 * length limit, a tool call's result, search enhancements with no model, the model-server banner, a knowledge base
 * that searches by keywords only — and every visible text is scanned: an English sentence fails the test. What people
 * wrote (questions, answers, quoted passages, page titles, paths) is content, not the UI, and is not scanned.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { invokeCore, snap } from './helpers';
import { startSift } from './sift-process';
import { tokens } from './replies';

/** Where content (not the UI's own words) is shown: left out of the scan. */
const CONTENT = [
  '.answer-text', '.bubble', '.reference-quote', '.reference-title', '.reference-path', '.reference-where', '.page-view',
  '.cite-preview', 'code', 'kbd', '.conversation-title', '.kb-name', '.why-found td', '.thinking-text', 'textarea', 'h1',
  '.answered-by', 'input', 'select',
];

/**
 * English sentences visible on the page: four or more Latin words in a row within one text, outside content. Text in
 * a closed `<details>` or otherwise hidden is not visible and not read.
 */
async function englishOnScreen(page: Page): Promise<string[]> {
  const texts = await page.evaluate((content) => {
    type Node = { nodeValue: string | null; parentElement: { closest(s: string): unknown; checkVisibility(): boolean } | null };
    type Doc = { body: unknown; createTreeWalker(root: unknown, what: number): { nextNode(): Node | null } };
    const doc = (globalThis as unknown as { document: Doc }).document;
    const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    const out: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.nodeValue?.trim() || parent.closest(content.join(',')) || !parent.checkVisibility()) continue;
      out.push(node.nodeValue);
    }
    return out;
  }, CONTENT);
  const sentence = /[A-Za-z][A-Za-z'’-]*(?:[ ,;:()]+[A-Za-z][A-Za-z'’-]*){3,}/g;
  // What the UI quotes (“the query searched”) is content inside its words.
  return texts.flatMap((text) => [...text.replace(/“[^”]*”/g, '“”').matchAll(sentence)].map((m) => m[0]));
}

async function expectChineseOnly(page: Page, state: string): Promise<void> {
  const found = await englishOnScreen(page);
  expect(found, `English on screen (${state})`).toEqual([]);
}

/** Open every folded detail of the page, so their words are scanned too. */
async function openAll(page: Page): Promise<void> {
  await page.locator('details:not([open]) > summary').evaluateAll((els) => els.forEach((el) => (el as unknown as { click(): void }).click()));
}

test('the Chinese UI shows no English sentence in the states that show core messages', async ({ page, served }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(served.url);
  await invokeCore(served.url, 'settings.set', { patch: { language: 'zh-CN' } });
  await page.reload();
  await page.getByLabel('新建知识库').fill('资料');
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await page.getByRole('tab', { name: '文件夹与索引' }).click();
  await page.getByLabel('添加文件夹').fill(served.folder);
  await page.getByRole('button', { name: '添加', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: '索引进度' })).toHaveAttribute('aria-valuenow', '100', { timeout: 45_000 });
  // The broken PDF is listed as failed, with why, in Chinese.
  await expect(page.locator('.problems .reason').first()).toContainText('无法读取此 PDF');
  await openAll(page);
  await snap(page, testInfo, 'zh-indexing-failed');
  await expectChineseOnly(page, 'indexing');

  await page.getByRole('tab', { name: '对话' }).click();
  const field = page.getByLabel('问题');
  const steps = page.getByRole('list', { name: '回答进度' });
  // A model that calls kb_search, then answers past its length limit.
  served.ollama.onChat({ chunks: [{ toolCalls: [{ name: 'kb_search', arguments: { query: 'gateway timeout' } }] }] });
  served.ollama.onChat({ chunks: tokens('The gateway gives up after 30 seconds [1].'), doneReason: 'length' });
  await field.fill('How long until the gateway times out?');
  await field.press('Enter');
  await expect(steps.last().getByRole('listitem').last()).toHaveText('完成', { timeout: 30_000 });
  await page.getByRole('button', { name: '显示步骤' }).last().click();
  await openAll(page);
  await snap(page, testInfo, 'zh-truncated-tool');
  await expectChineseOnly(page, 'a tool call, an answer at its length limit');

  // No model: the follow-up is not rewritten, the deep search's enhancements are off, the banner says what to do.
  await served.ollama.close();
  await page.getByRole('combobox', { name: '搜索深度' }).selectOption('deep');
  await field.fill('And when a connection drops?');
  await field.press('Enter');
  await expect(steps.last().getByRole('listitem').last()).toHaveText(/^仅以段落原文作答/, { timeout: 30_000 });
  await expect(page.getByText(/^追问没有经模型改写/)).toBeVisible();
  await page.getByRole('button', { name: /^(重新检查|检查)/ }).first().click().catch(() => undefined);
  await expect(page.locator('.banner.warning')).toBeVisible({ timeout: 15_000 });
  await openAll(page);
  await snap(page, testInfo, 'zh-no-model');
  await expectChineseOnly(page, 'no model');
});

test('a keyword-only knowledge base says why in Chinese', async ({ page, served }, testInfo) => {
  const keywordOnly = await startSift({ ollamaUrl: served.ollama.url, env: { SIFT_EMBEDDING: 'ollama:no-such-embedder' } });
  try {
    await invokeCore(keywordOnly.url, 'settings.set', { patch: { language: 'zh-CN' } });
    await page.goto(keywordOnly.url);
    await page.getByLabel('新建知识库').fill('资料');
    await page.getByRole('button', { name: '创建', exact: true }).click();
    await page.getByRole('tab', { name: '文件夹与索引' }).click();
    await page.getByLabel('添加文件夹').fill(served.folder);
    await page.getByRole('button', { name: '添加', exact: true }).click();
    await expect(page.getByRole('progressbar', { name: '索引进度' })).toHaveAttribute('aria-valuenow', '100', { timeout: 45_000 });
    await expect(page.locator('.banner.info')).toBeVisible();
    await openAll(page);
    await snap(page, testInfo, 'zh-keyword-only');
    await expectChineseOnly(page, 'keyword-only');
  } finally {
    await keywordOnly.stop();
  }
});
