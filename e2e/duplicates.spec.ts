/**
 * A passage that several pages hold alike is one reference that says where else it is (issue #25 item 3):
 * the same README in three packages, answered without Ollama.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';

const README = '# fast-glob\n\nFast and reliable glob matching for Node.js: traverses the file system and returns pathnames that match a pattern, with support for negation, brace expansion and dotfiles.\n';

test('the same README in three packages is one reference, "Also in" the other two', async ({ page, served }, testInfo) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-dup-'));
  for (const pkg of ['alpha', 'beta', 'gamma']) {
    fs.mkdirSync(path.join(folder, pkg));
    fs.writeFileSync(path.join(folder, pkg, 'README.md'), README);
  }
  fs.writeFileSync(path.join(folder, 'shell.md'), '# Shell globbing\n\nThe shell expands a glob pattern before the program runs; quote it to pass it through.\n');
  await served.ollama.close();
  await page.goto(served.url);
  await createKb(page, 'Packages');
  await addFolderAndIndex(page, folder);
  await showScreen(page, 'Chat');
  await ask(page, 'glob pattern brace expansion');
  await waitTurnEnded(page, /^Answered with passages only/);
  const references = lastAnswer(page).locator('.reference');
  await expect(references.filter({ hasText: 'fast-glob' })).toHaveCount(1);
  await expect(lastAnswer(page).locator('.reference-also-in')).toHaveCount(1);
  await expect(lastAnswer(page).locator('.reference-also-in')).toHaveText(/^Also in: (alpha|beta|gamma)\/README\.md, (alpha|beta|gamma)\/README\.md$/);
  await snap(page, testInfo, 'duplicates-also-in');
});
