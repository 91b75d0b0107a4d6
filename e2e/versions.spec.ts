/**
 * Versions of one document in the chat (issue #15 item 4): the references under an answer and the
 * "why these passages" table show each passage's version as a badge, the current version first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VERSION_DOCS } from '../electron/core/search/testing/version-docs';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';

test.beforeEach(async ({ page, served }) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-versions-'));
  for (const [name, text] of Object.entries(VERSION_DOCS)) fs.writeFileSync(path.join(folder, name), text);
  await page.goto(served.url);
  await createKb(page, 'Policies');
  await addFolderAndIndex(page, folder);
  await showScreen(page, 'Chat');
});

test('references and cited passages carry a version badge: current first, the old one marked superseded', async ({ page, served }, testInfo) => {
  served.ollama.onChat({ chunks: [{ content: '现在每晚最高 500 元 [1]；2023 版另有规定 [2][3][4]。' }] });
  await ask(page, '出差住宿费每晚最高报销多少？');
  await waitTurnEnded(page, /^Done$/);
  const answer = lastAnswer(page);
  const references = answer.locator('.reference');
  await expect(references.nth(0).locator('.version-badge')).toHaveText('Current · (2024版)');
  await expect(references.nth(0).locator('.version-badge')).toHaveClass(/\bcurrent\b/);
  await expect(references.nth(0).locator('.reference-path')).toHaveText('wiki/差旅报销政策（2024版）.md');
  const oldReference = references.filter({ hasText: 'wiki/差旅报销政策（2023版）.md' }).first();
  const old = oldReference.locator('.version-badge');
  await expect(old).toHaveText('Superseded · (2023版)');
  await expect(old).toHaveClass(/\bsuperseded\b/);
  await expect(old).toHaveAttribute('title', 'A newer version replaces this one: wiki/差旅报销政策（2024版）.md');
  // The hover preview of that citation shows the badge too.
  const number = await oldReference.locator('.reference-number').textContent();
  await answer.getByRole('button', { name: new RegExp(`^Citation ${number}: `) }).hover();
  await expect(page.getByRole('tooltip').locator('.version-badge')).toHaveText('Superseded · (2023版)');
  await snap(page, testInfo, 'versions-references');
  // The "why these passages" table names each passage's version.
  await answer.getByText(/Why these passages/).click();
  await expect(answer.locator('.why-found tbody tr').first().locator('.version-badge')).toHaveText('Current · (2024版)');
});
