/**
 * The workbench at narrow window sizes (issue #14, item 10): with the source pane open, the chat
 * column keeps at least 480 px down to 900×600 (the pane becomes a drawer over the thread, the
 * conversation list collapses to a rail), and nothing spills out of the window sideways.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { citingReply } from './replies';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, waitTurnEnded } from './helpers';

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
