/**
 * The workbench at narrow window sizes (issue #14, item 10): with the source pane open, the chat
 * column keeps at least 480 px down to 900×600 (the pane becomes a drawer over the thread, the
 * conversation list collapses to a rail), and nothing spills out of the window sideways.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { citingReply } from './replies';
import { addFolderAndIndex, ask, createKb, invokeCore, lastAnswer, showScreen, waitTurnEnded } from './helpers';

/** Width and height of the first element matching `selector`, in CSS pixels. */
async function boxOf(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return { width: Math.round(box.width), height: Math.round(box.height) };
}

test.beforeEach(async ({ page, served }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(0));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  await lastAnswer(page).getByRole('button', { name: /^Citation 1: / }).first().click();
  await expect(page.getByRole('complementary', { name: 'Source' })).toBeVisible();
});

for (const size of [
  { width: 1400, height: 900 },
  { width: 1000, height: 700 },
  { width: 900, height: 600 },
]) {
  test(`at ${size.width}×${size.height} with the source open the chat column keeps 480 px`, async ({ page }) => {
    await page.setViewportSize(size);
    const reader = page.getByRole('complementary', { name: 'Source' });
    await expect(reader).toBeVisible();
    expect((await boxOf(page, '.thread-column')).width).toBeGreaterThanOrEqual(480);
    // The question box is a field to write in, not a strip.
    expect((await boxOf(page, '.composer-field')).width).toBeGreaterThanOrEqual(320);
    const readerBox = await reader.boundingBox();
    expect(readerBox!.width).toBeGreaterThanOrEqual(300);
    expect(readerBox!.x + readerBox!.width).toBeLessThanOrEqual(size.width + 1);
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBe(0);
    // The reader, docked or a drawer, leaves the question box uncovered: it takes a click.
    const composerBox = (await page.locator('.composer').boundingBox())!;
    const beside = readerBox!.x >= composerBox.x + composerBox.width - 1;
    const above = readerBox!.y + readerBox!.height <= composerBox.y + 1;
    expect(beside || above).toBe(true);
    await page.getByLabel('Question').click({ timeout: 2000 });
    // The drawer closes, and the thread is whole again.
    await reader.getByRole('button', { name: 'Close page' }).click();
    await expect(reader).toHaveCount(0);
  });
}

test('at 900×600 the conversation list collapses to a rail and opens on demand', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 });
  const list = page.getByRole('navigation', { name: 'Conversations' });
  expect((await boxOf(page, '.conversations')).width).toBeLessThanOrEqual(64);
  const toggle = list.getByRole('button', { name: 'Show conversations' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(list.getByRole('button', { name: /^How long until the gateway/ })).toBeVisible();
  // Opened over the thread, it leaves the chat column where it was.
  expect((await boxOf(page, '.thread-column')).width).toBeGreaterThanOrEqual(480);
  await list.getByRole('button', { name: /^How long until the gateway/ }).click();
  await expect(list.getByRole('button', { name: 'Show conversations' })).toHaveAttribute('aria-expanded', 'false');
});

test('screenshots at three sizes, light and dark, English and Chinese, with the source open', async ({ page, served }) => {
  const dir = test.info().project.outputDir;
  const shot = (name: string) => page.screenshot({ path: `${dir}/screens/${name}.png`, animations: 'disabled' });
  for (const language of ['en', 'zh-CN'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await invokeCore(served.url, 'settings.set', { patch: { language, theme } });
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      for (const [width, height] of [[1400, 900], [1000, 700], [900, 600]] as const) {
        await page.setViewportSize({ width, height });
        await expect(page.locator('.reader')).toBeVisible();
        await shot(`${width}x${height}-${theme}-${language}`);
      }
    }
  }
  // The indexing panel's figures, each labelled for what it counts.
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.getByRole('tab', { name: '文件夹与索引' }).click();
  await expect(page.getByText('已是最新')).toBeVisible();
  await shot('1000x700-dark-zh-CN-indexing');
  await page.getByRole('tab', { name: '对话' }).click();
  await page.setViewportSize({ width: 900, height: 600 });
  // With Ollama gone, its banner above the chat, at the smallest size.
  await served.ollama.close();
  await page.locator('.status-llm.down').waitFor({ timeout: 20_000 });
  await shot('900x600-dark-zh-CN-banner');
  await invokeCore(served.url, 'settings.set', { patch: { language: 'en', theme: 'light' } });
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await shot('900x600-light-en-banner');
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Show conversations' }).click();
  await shot('900x600-light-en-conversations-open');
});
