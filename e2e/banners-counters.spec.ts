/**
 * Banners and counters (issue #14, items 11 and 12): no keyword-only nag when the person chose no
 * embedding model, and Settings say which model the environment forces; when the chosen model cannot
 * be had, one compact banner in the UI's language whose button opens the embedding settings and which
 * can be dismissed; banners never take a quarter of the window; the status bar and the indexing panel
 * give the same figures, labelled for what they count, during indexing and after a watched change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startMockOllama, type MockOllama } from '../electron/core/testing/ollama-mock';
import { writeMainFolder } from './corpus';
import { expect, test } from './fixtures';
import { closeSettings, createKb, invokeCore, openSettings, showScreen } from './helpers';
import { startSift, type SiftProcess } from './sift-process';

let scratch = '';
let ollama: MockOllama | null = null;
let sift: SiftProcess | null = null;

test.beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-banners-'));
});
test.afterEach(async () => {
  await sift?.stop();
  await ollama?.close().catch(() => undefined);
  sift = ollama = null;
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A `sift serve` with the environment's embedding choice, and the main fixture folder. */
async function serve(env: Record<string, string>): Promise<{ url: string; folder: string }> {
  ollama = await startMockOllama();
  sift = await startSift({ ollamaUrl: ollama.url, env });
  return { url: sift.url, folder: await writeMainFolder(path.join(scratch, 'library')) };
}

async function addFolder(page: Page, folder: string): Promise<void> {
  await showScreen(page, 'Folders & indexing');
  await page.getByLabel('Add a folder').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('list', { name: 'Folders of this knowledge base' })).toContainText(folder);
}

/** Wait for the folder's run to finish (the empty knowledge base's own run is "Up to date" too). */
async function waitIndexed(page: Page): Promise<void> {
  const bar = page.getByRole('progressbar', { name: 'Indexing progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 45_000 });
  await expect(page.getByText('Up to date')).toBeVisible();
}

/** The figure the indexing panel shows under `label`. */
function count(page: Page, label: string) {
  return page.locator('.count').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
}

test('no embedding model chosen: no keyword-only banner, no vector count, and Settings say what the environment forces', async ({ page }) => {
  const { url, folder } = await serve({ SIFT_EMBEDDING: 'none' });
  await page.goto(url);
  await createKb(page, 'Plain');
  await addFolder(page, folder);
  await waitIndexed(page);
  await expect(count(page, 'With vectors')).toHaveText('off (no model chosen)');
  await expect(page.getByRole('region', { name: 'Keyword-only search' })).toHaveCount(0);
  const dialog = await openSettings(page);
  await expect(dialog.getByRole('note')).toHaveText(/^In use: None \(keywords only\), set by the environment/);
  await closeSettings(page);
});

test('model unavailable: one compact Chinese banner, core text as a detail, its button opens the setting, dismissible', async ({ page }) => {
  const { url, folder } = await serve({ SIFT_EMBEDDING: 'ollama:no-such-embedder' });
  await invokeCore(url, 'settings.set', { patch: { language: 'zh-CN' } });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.goto(url);
  await page.getByLabel('新建知识库').fill('资料库');
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await page.getByRole('tab', { name: '文件夹与索引' }).click();
  await page.getByLabel('添加文件夹').fill(folder);
  await page.getByRole('button', { name: '添加', exact: true }).click();
  const banner = page.getByRole('region', { name: '仅关键词搜索' });
  await expect(banner).toBeVisible({ timeout: 45_000 });
  // Outside its folded detail, no English sentence: commands in code are the only Latin text.
  const body = banner.locator('.banner-body > p');
  let prose = await body.innerText();
  for (const code of await body.locator('code').allInnerTexts()) prose = prose.replace(code, '');
  expect(prose).not.toMatch(/[A-Za-z]{3,}\s+[A-Za-z]{3,}/);
  await expect(banner.locator('details')).toContainText('no-such-embedder');
  // Compact: a banner is a line or two, never a quarter of the window.
  expect((await page.locator('.banners').boundingBox())!.height).toBeLessThan(600 / 4);
  await banner.getByRole('button', { name: '嵌入模型设置' }).click();
  await expect(page.getByRole('dialog', { name: '设置' })).toBeVisible();
  await closeSettings(page);
  await banner.getByRole('button', { name: '本次不再显示' }).click();
  await expect(banner).toHaveCount(0);
});

test('counters agree: not "Ready" while indexing; after a watched change the failed count is the same everywhere', async ({ page }) => {
  const { url, folder } = await serve({ SIFT_EMBEDDING: 'none' });
  // Enough files that indexing lasts long enough to be seen.
  for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(folder, `note-${i}.md`), `# Note ${i}\n\n${'word '.repeat(200)}${i}\n`);
  await page.goto(url);
  await createKb(page, 'Counted');
  await addFolder(page, folder);
  const bar = page.getByRole('contentinfo', { name: 'Status bar' });
  await expect(bar.getByLabel('Indexing status')).toContainText(/Indexing \d+/);
  await expect(bar).not.toContainText('Ready');
  await waitIndexed(page);
  // (The turn trail and its "Ready" moved into the thread; the bar shows the indexing figures alone.)
  await expect(bar.getByLabel('Indexing status')).toHaveText(/pages · 1 failed$/);
  await expect(count(page, 'Failed')).toHaveText('1');
  const files = await count(page, 'Files in knowledge base').textContent();

  fs.appendFileSync(path.join(folder, 'note-1.md'), '\nchanged while watched\n');
  await expect(count(page, 'Files read this run')).toHaveText('1 / 1', { timeout: 15_000 });
  await expect(page.getByText('Up to date')).toBeVisible();
  await expect(count(page, 'Failed')).toHaveText('1');
  await expect(bar.getByLabel('Indexing status')).toHaveText(/pages · 1 failed$/);
  await expect(count(page, 'Files in knowledge base')).toHaveText(files!);
});
