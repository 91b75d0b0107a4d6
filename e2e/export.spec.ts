/**
 * Export from the UI: "Copy as Markdown" puts the answer with `[^n]` footnotes on the clipboard;
 * "Export…" downloads Markdown or HTML with the footnotes, saves into a typed folder (Markdown and
 * a PDF printed by the core), and hands PDF to the browser's print dialog. The print dialog
 * itself cannot be driven headless: the test checks the document handed to it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Download, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, readClipboard, showScreen, snap, waitTurnEnded } from './helpers';
import { citingReply, rewriteReply } from './replies';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
});

async function readDownload(download: Download): Promise<string> {
  return fs.readFileSync((await download.path())!, 'utf8');
}

/** Choose options in the open export dialog and press its main button, expecting a download. */
async function exportAs(page: Page, format: 'Markdown' | 'HTML', scope?: 'This answer' | 'The whole conversation'): Promise<Download> {
  const dialog = page.getByRole('dialog', { name: 'Export' });
  if (scope) await dialog.getByRole('radio', { name: scope }).check();
  await dialog.getByRole('radio', { name: format, exact: true }).check();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
  await expect(dialog).toHaveCount(0);
  return download;
}

test('Copy as Markdown puts the answer with footnoted sources on the clipboard; invalid [9] is marked unresolved', async ({ page }, testInfo) => {
  const answer = lastAnswer(page);
  await answer.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(answer.getByRole('status')).toHaveText('Copied');
  const copied = await readClipboard(page);
  expect(copied).toContain('**30 seconds** [^1]');
  expect(copied).toMatch(/^\[\^1\]: “.+”$/m);
  expect(copied).toMatch(/^\[\^2\]: “.+”$/m);
  // [9] names no passage: escaped plain text marked unresolved, never a footnote.
  expect(copied).toContain('See also \\[9: unresolved\\].');
  expect(copied).not.toMatch(/\[\^3\]/);
  await snap(page, testInfo, '80-copied');
});

test('Export… downloads Markdown and HTML with footnotes; the conversation list exports the whole conversation', async ({ page, served }, testInfo) => {
  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  await snap(page, testInfo, '81-export-dialog');
  const md = await exportAs(page, 'Markdown');
  expect(md.suggestedFilename()).toMatch(/^How long until the gateway times out.*\.md$/);
  const markdown = await readDownload(md);
  expect(markdown).toContain('[^1]');
  expect(markdown).toMatch(/^\[\^1\]: “.+”$/m);

  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  const html = await readDownload(await exportAs(page, 'HTML'));
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).toContain('id="user-content-fn-1"');
  expect(html).toContain('data-footnote-ref');

  // A second question; the conversation list's export takes both answers.
  served.ollama.onChat(rewriteReply('How does the gateway retry?'));
  served.ollama.onChat(citingReply(5));
  await ask(page, 'And the retries?');
  await waitTurnEnded(page, /^Done$/);
  // One answer is titled by its own question, not by the conversation's title.
  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  const second = await readDownload(await exportAs(page, 'Markdown'));
  expect(second).toMatch(/^# And the retries\?\n/);
  expect(second).not.toContain('How long until');
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /^Export conversation How long until/ }).click();
  await expect(page.getByRole('dialog', { name: 'Export' }).getByRole('radio', { name: 'This answer' })).toHaveCount(0);
  const whole = await readDownload(await exportAs(page, 'Markdown'));
  expect(whole).toContain('How long until the gateway times out?');
  expect(whole).toContain('And the retries?');
  // Footnote labels run on across answers, so two answers never share one.
  expect(whole).toMatch(/^\[\^3\]: /m);
});

test('Export… saves into a typed folder (Markdown and PDF); PDF in the browser goes to its print dialog', async ({ page }, testInfo) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-export-'));
  try {
    await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.getByRole('radio', { name: 'Save into a folder on this computer' }).check();
    await dialog.getByLabel('Folder', { exact: true }).fill('exports');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Type the full path');
    await dialog.getByLabel('Folder', { exact: true }).fill(folder);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Saved to ${folder}${path.sep}`);
    const saved = fs.readdirSync(folder);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/\.md$/);
    expect(fs.readFileSync(path.join(folder, saved[0]!), 'utf8')).toMatch(/^\[\^1\]: “.+”$/m);
    await snap(page, testInfo, '82-saved-to-folder');

    // The core prints the PDF (with the machine's Chromium) into the same folder, next to the Markdown.
    await dialog.getByRole('radio', { name: 'PDF', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('status')).toContainText('.pdf', { timeout: 60_000 });
    const pdf = fs.readdirSync(folder).find((f) => f.endsWith('.pdf'))!;
    expect(fs.readFileSync(path.join(folder, pdf)).subarray(0, 5).toString()).toBe('%PDF-');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);

    // Remembered for next time.
    await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: 'Save into a folder on this computer' }).check();
    await expect(dialog.getByLabel('Folder', { exact: true })).toHaveValue(folder);

    // PDF without a folder: the rendered HTML goes to the browser's print dialog (not drivable headless).
    await dialog.getByRole('radio', { name: 'Download (PDF: print from the browser)' }).check();
    await dialog.getByRole('radio', { name: 'PDF', exact: true }).check();
    await expect(dialog).toContainText('Choose “Save as PDF” in the print dialog.');
    await dialog.getByRole('button', { name: 'Print…' }).click();
    await expect(dialog).toHaveCount(0);
    const printed = page.frameLocator('#sift-print-frame');
    await expect(printed.locator('section.footnotes li').first()).toContainText('“');
    await expect(printed.locator('sup a[data-footnote-ref]').first()).toHaveText('1');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
