/** Steps the end-to-end tests share, written the way a person works the UI (roles and labels only). */
import path from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/** Create a knowledge base from the sidebar and wait until it is the selected one. */
export async function createKb(page: Page, name: string): Promise<void> {
  await page.getByLabel('New knowledge base').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Open a screen of the selected knowledge base by its tab. */
export async function showScreen(page: Page, name: 'Chat' | 'Pages' | 'Folders & indexing'): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** Add a folder through the path field and wait for its indexing run to finish. */
export async function addFolderAndIndex(page: Page, folder: string): Promise<void> {
  await showScreen(page, 'Folders & indexing');
  await page.getByLabel('Add a folder').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('list', { name: 'Folders of this knowledge base' })).toContainText(folder);
  await waitIndexed(page);
}

/** Wait until the indexing panel says the knowledge base is up to date. */
export async function waitIndexed(page: Page): Promise<void> {
  await expect(page.getByText('Up to date')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('progressbar', { name: 'Indexing progress' })).toHaveAttribute('aria-valuenow', '100');
}

/** Type a question into the composer and send it with Enter. */
export async function ask(page: Page, question: string): Promise<void> {
  const field = page.getByLabel('Question');
  await field.fill(question);
  await field.press('Enter');
}

/** The last answer of the open conversation. */
export function lastAnswer(page: Page) {
  return page.getByRole('article', { name: 'Answer' }).last();
}

/** Wait for the latest turn of the thread to end (its last step, above its answer, is no longer "Answering…"). */
export async function waitTurnEnded(page: Page, last: RegExp = /^(Done|Stopped|Cut off|Answered with passages only.*)$/): Promise<void> {
  const steps = page.getByRole('list', { name: 'Turn progress' }).last();
  await expect(steps.getByRole('listitem').last()).toHaveText(last, { timeout: 30_000 });
}

/** A value kept on the page's window (e.g. a marker that a reload would lose); this e2e code has no DOM types. */
type PageGlobals = { siftMarker?: boolean };

/** Put a marker on the page's window; {@link hasMarker} is false again after a reload. */
export async function setMarker(page: Page): Promise<void> {
  await page.evaluate(() => void ((globalThis as PageGlobals).siftMarker = true));
}

/** Whether the marker set by {@link setMarker} is still there (the page was not reloaded). */
export function hasMarker(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as PageGlobals).siftMarker === true);
}

/** The text on the page's clipboard (the context needs the clipboard-read permission). */
export function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
}

/** Save a screenshot as a test artifact (in test-results/) under `name`. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), animations: 'disabled' });
}

/** Open the settings dialog from the sidebar's gear button; returns the dialog. */
export async function openSettings(page: Page) {
  await page.getByRole('complementary').getByRole('button', { name: /^(Settings|设置)$/ }).click();
  const dialog = page.getByRole('dialog', { name: /^(Settings|设置)$/ });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Close the settings dialog with its close button. */
export async function closeSettings(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: /^(Settings|设置)$/ });
  await dialog.getByRole('button', { name: /^(Close|关闭)$/ }).first().click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Run an operation on the core behind `url` (the served URL with its token) over HTTP, as any
 * client would; throws with the core's message when it fails. For checking what the UI saved.
 */
export async function invokeCore<T = unknown>(url: string, op: string, args: unknown = {}): Promise<T> {
  const { origin, searchParams } = new URL(url);
  const res = await fetch(`${origin}/api/invoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${searchParams.get('token')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ op, args }),
  });
  const body = (await res.json()) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
  if (!body.ok) throw new Error(`${op}: ${body.error.code}: ${body.error.message}`);
  return body.value;
}

/** The page's background colour as the browser computes it (for checking the theme). */
export function backgroundOf(page: Page): Promise<string> {
  return page.locator('html').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor);
}

/** Where the on-request screenshot specs (SIFT_SCREENS=1) write their PNGs. */
export const SCREENS_DIR = path.join('test-results', 'screens');

/**
 * Open `url` in a fresh tab for each language × theme × window size the screenshot specs cover
 * (en, zh-CN; light, dark; 1400×900, 1000×700), call `shoot` with the tab, a name for its files and the locale,
 * then close the tab's context.
 */
export async function forEachScreen(
  browser: Browser,
  url: string,
  shoot: (tab: Page, name: string, locale: string) => Promise<void>,
): Promise<void> {
  for (const locale of ['en', 'zh-CN']) {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1400, height: 900 }, { width: 1000, height: 700 }]) {
        const context = await browser.newContext({ locale, colorScheme, viewport });
        const tab = await context.newPage();
        await tab.goto(url);
        await shoot(tab, `${viewport.width}x${viewport.height}-${colorScheme}-${locale}`, locale);
        await context.close();
      }
    }
  }
}
