/**
 * What people touch in the thread (issue #27, item 7): a citation's preview renders Markdown as the source pane does
 * and stays inside the thread wherever its chip is; a step line too long for its row ends in an ellipsis with its
 * whole text on hover; a finished turn keeps its "Found N pages · Done" line after a reload; a reload reopens the
 * knowledge base last used; Enter while another tab's answer runs says why nothing was sent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  addFolderAndIndex, ask, closeSettings, createKb, invokeCore, lastAnswer, openSettings, showScreen, snap, waitTurnEnded,
} from './helpers';
import { rewriteReply, slowReply, tokens } from './replies';

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
});

/** A page that is one section: its passage starts with the section's heading, as in the issue (`## 处置步骤`). */
const RUNBOOK = `## 处置步骤

网关出现 E_CONN_RESET 时：

1. 检查 **api-gateway** 的日志
2. 重启上游服务
`;

/** A folder of one runbook page whose passages start with Markdown headings and lists. */
function runbookFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-runbook-'));
  fs.writeFileSync(path.join(folder, 'runbook.md'), RUNBOOK);
  return folder;
}

/** A box as the page lays it out. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

/** True when `inner` lies within `outer` (1 px of rounding allowed). */
function inside(inner: { x: number; y: number; width: number; height: number }, outer: typeof inner): boolean {
  return inner.y >= outer.y - 1 && inner.y + inner.height <= outer.y + outer.height + 1;
}

async function askRunbook(page: Page, served: { ollama: { onChat(r: unknown): void } }, question: string): Promise<void> {
  const paragraphs = Array.from({ length: 14 }, (_, i) => `Step note ${i + 1}: see the runbook [1].`).join('\n\n');
  served.ollama.onChat({ chunks: tokens(paragraphs), delayMs: 2 });
  await ask(page, question);
  await waitTurnEnded(page, /^Done$/);
}

test('a citation preview renders Markdown and stays inside the thread, at its top and at its bottom', async ({ page, served }, testInfo) => {
  await createKb(page, 'Runbooks');
  await addFolderAndIndex(page, runbookFolder());
  await showScreen(page, 'Chat');
  await askRunbook(page, served, '网关 E_CONN_RESET 处置步骤');
  const thread = page.locator('.thread');
  const chips = lastAnswer(page).getByRole('button', { name: /^Citation 1: / });
  const preview = page.getByRole('tooltip');

  // The first chip scrolled to the top edge of the thread, then the last one at its bottom edge.
  for (const [chip, where] of [[chips.first(), 'start'], [chips.last(), 'end']] as const) {
    await chip.evaluate((el, block) => el.scrollIntoView({ block }), where);
    await chip.hover();
    await expect(preview).toBeVisible();
    expect(inside(await box(preview), await box(thread))).toBe(true);
    if (where === 'start') await snap(page, testInfo, 'preview-top-en');
    await page.mouse.move(5, 5);
    await expect(preview).toHaveCount(0);
  }
  await chips.first().hover();
  // Headings and lists as the source pane shows them, never their Markdown marks.
  await expect(preview).not.toContainText('## ');
  await expect(preview).not.toContainText('**');
  await expect(preview.locator('li').first()).toBeVisible();
  await snap(page, testInfo, 'preview-markdown-en');

  const settings = await openSettings(page);
  await settings.getByLabel('Language').selectOption('zh-CN');
  await closeSettings(page);
  await page.getByRole('article', { name: '回答' }).last().getByRole('button', { name: /^引用 1/ }).first().hover();
  await expect(preview).toBeVisible();
  await snap(page, testInfo, 'preview-markdown-zh');
});

test('a finished turn keeps its steps line after a reload, and the reload reopens the knowledge base last used', async ({ page, served }) => {
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await createKb(page, 'Second');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat({ chunks: tokens('The gateway times out after 30 seconds [1].') });
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const steps = page.getByRole('list', { name: 'Turn progress' });
  await expect(steps.getByRole('listitem')).toHaveText([/^Found \d+ pages?$/, 'Done']);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Second' })).toBeVisible();
  await showScreen(page, 'Chat');
  await expect(lastAnswer(page)).toContainText('30 seconds');
  await expect(steps.getByRole('listitem')).toHaveText([/^Found \d+ pages?$/, 'Done']);
});

test('a step too long for its line ends in an ellipsis and shows its whole text on hover', async ({ page, served }, testInfo) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat({ chunks: tokens('It waits 30 seconds [1].') });
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const long = 'What is the upstream timeout of the API gateway before it logs E_CONN_RESET and retries the request once more';
  served.ollama.onChat(rewriteReply(long));
  served.ollama.onChat({ chunks: tokens('It retries once [1].') });
  await ask(page, 'And then?');
  await waitTurnEnded(page, /^Done$/);
  const step = page.getByRole('list', { name: 'Turn progress' }).last().getByRole('listitem').first();
  await expect(step).toHaveAttribute('title', new RegExp(`${long}.*rewritten`));
  // Polled: the ended turn's line replaces the live one as its answer is stored.
  const cut = () => step.evaluate((el) => ({
    clipped: el.scrollWidth > el.clientWidth,
    ellipsis: el.ownerDocument.defaultView!.getComputedStyle(el).textOverflow,
    fits: el.getBoundingClientRect().right <= (el.closest('.thread-content')?.getBoundingClientRect().right ?? 0) + 1,
  }));
  await expect.poll(cut).toEqual({ clipped: true, ellipsis: 'ellipsis', fits: true });
  await snap(page, testInfo, 'step-ellipsis-en');
  const settings = await openSettings(page);
  await settings.getByLabel('Language').selectOption('zh-CN');
  await closeSettings(page);
  const stepZh = page.getByRole('list', { name: '回答进度' }).last().getByRole('listitem').first();
  await expect(stepZh).toHaveAttribute('title', new RegExp(`${long}.*追问已改写`));
  await snap(page, testInfo, 'step-ellipsis-zh');
});

test('Enter in a second tab while the first tab’s answer runs says why nothing was sent', async ({ page, served, context }, testInfo) => {
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(slowReply(120));
  await ask(page, 'What is the retry policy?');
  await expect(lastAnswer(page)).toContainText('Sentence 2 ');

  const other = await context.newPage();
  await other.goto(served.url);
  await showScreen(other, 'Chat');
  await other.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /^What is the retry/ }).click();
  await expect(other.getByRole('button', { name: 'Stop answer' })).toBeVisible();
  await ask(other, 'And the timeout?');
  await expect(other.getByRole('status').filter({ hasText: /^Not sent: an answer is still being written/ })).toBeVisible();
  await expect(other.getByLabel('Question')).toHaveValue('And the timeout?');
  await snap(other, testInfo, 'second-tab-waiting-en');
  await invokeCore(served.url, 'settings.set', { patch: { language: 'zh-CN' } });
  // The language applies live in every window, so the box is now labelled in Chinese.
  const questionZh = other.getByLabel('问题');
  await questionZh.fill('And the timeout?');
  await questionZh.press('Enter');
  await expect(other.getByRole('status').filter({ hasText: /^未发送：此对话中仍有回答正在生成/ })).toBeVisible();
  await snap(other, testInfo, 'second-tab-waiting-zh');
  await invokeCore(served.url, 'settings.set', { patch: { language: 'en' } });
  await page.getByRole('button', { name: 'Stop answer' }).click();
  await expect(other.getByRole('status').filter({ hasText: /^Not sent/ })).toHaveCount(0);
  await other.close();
});
