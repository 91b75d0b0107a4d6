/**
 * Scanned pages in the UI against the real core and the real OCR models (issue #26 item 1): a folder of a scanned
 * PDF (drawn at test time, no text layer) and a photo of a receipt is indexed; a citation of the scan opens the
 * page image with the cited lines' boxes highlighted and the recognised text beside it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHINESE_LINES, ENGLISH_LINES, FONTS, drawPage, imagePdf, manyEnglishLines } from '../electron/core/ocr/testing/scans';
import { expect, test } from './fixtures';
import { ask, createKb, lastAnswer, openSettings, showScreen, snap, waitTurnEnded } from './helpers';
import type { Page } from '@playwright/test';

import { citingReply } from './replies';

/** Add a folder and wait until its two pages are in: OCR of the scans takes seconds a page on a loaded machine. */
async function addFolderAndIndex(page: Page, folder: string): Promise<void> {
  await showScreen(page, 'Folders & indexing');
  await page.getByLabel('Add a folder').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('2 pages', { timeout: 150_000 });
  await expect(page.getByText('Up to date')).toBeVisible({ timeout: 60_000 });
}

const made: string[] = [];
test.afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder with a two-page scanned contract (English, then Chinese) and a receipt photo. */
function scans(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-ocr-'));
  made.push(dir);
  const pages = [
    // a full page: the cited passage is a part of it, so only its lines are highlighted
    drawPage([...manyEnglishLines(14), ...ENGLISH_LINES, ...manyEnglishLines(14, 7)], { family: FONTS.serif.family, size: 24, format: 'jpeg' }),
    drawPage(CHINESE_LINES, { family: FONTS.sans.family, format: 'jpeg' }),
  ];
  fs.writeFileSync(path.join(dir, 'contract-scan.pdf'), imagePdf(pages.map((p) => ({ jpeg: p.bytes, width: p.width, height: p.height }))));
  fs.writeFileSync(path.join(dir, 'receipt.png'), drawPage(['Receipt 0042 · Harbour Café', 'Two flat whites  7.80'], { family: FONTS.sans.family, width: 900, height: 320 }).bytes);
  return dir;
}

test('a citation of a scanned page opens its image with the cited lines boxed, and the recognised text beside it', async ({ page, served }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(served.url);
  await createKb(page, 'Scans');
  await addFolderAndIndex(page, scans());

  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'Which warehouse closes on public holidays?');
  await waitTurnEnded(page);
  const references = page.getByRole('region', { name: 'References' }).last();
  await expect(references).toContainText('contract-scan');
  await lastAnswer(page).getByRole('button', { name: /^Citation 1: / }).first().click();
  const source = page.getByRole('complementary', { name: 'Source' });
  const image = source.getByRole('img', { name: /^Image of page 1$/ });
  await expect(image).toBeVisible({ timeout: 20_000 });
  await expect(source.getByText(/^OCR \d+ %$/)).toBeVisible();
  // the recognised text beside the image, the cited lines marked, and their boxes on the image
  const text = source.getByRole('list', { name: 'Recognised text of page 1' });
  await expect(text).toContainText('The warehouse in Rotterdam closes on public holidays.');
  await expect(text.locator('mark.passage').first()).toBeVisible();
  const boxes = source.locator('.scan-canvas rect.cited');
  expect(await boxes.count()).toBeGreaterThan(0);
  // a cited box lies over the image
  const box = (await boxes.first().boundingBox())!;
  const img = (await image.boundingBox())!;
  expect(box.x >= img.x && box.y >= img.y && box.x + box.width <= img.x + img.width + 1).toBe(true);
  await snap(page, testInfo, 'ocr-citation-scan-view');

  // the second page of the scan, in Chinese, from the page switcher
  await source.getByRole('button', { name: 'page 2' }).click();
  await expect(source.getByRole('list', { name: 'Recognised text of page 2' })).toContainText('本合同自双方签字之日起生效');
  await expect(source.getByRole('img', { name: 'Image of page 2' })).toBeVisible({ timeout: 20_000 });
  await snap(page, testInfo, 'ocr-page-2-chinese');
});

test('an image is a page with its OCR confidence, and OCR can be turned off in Settings', async ({ page, served }, testInfo) => {
  test.setTimeout(240_000);
  await page.goto(served.url);
  await createKb(page, 'Receipts');
  await addFolderAndIndex(page, scans());
  await showScreen(page, 'Pages');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /receipt/ }).click();
  await expect(page.getByRole('img', { name: 'Image of page 1' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Recognised text of page 1' })).toContainText('Harbour Caf');
  await snap(page, testInfo, 'ocr-image-page');
  const dialog = await openSettings(page);
  const setting = dialog.getByLabel('Read scans and images (OCR)');
  await expect(setting).toHaveValue('on');
  await setting.selectOption('off');
  await expect(setting).toHaveValue('off');
  await snap(page, testInfo, 'ocr-setting');
});
