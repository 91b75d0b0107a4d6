/**
 * Glossary hits are marked (issue #15): a question naming a glossary term gets the term's definition as its
 * first passage, and the answer shows it as a glossary definition in the references, the citation's preview
 * and "why these passages were found".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GLOSSARY_ZH } from '../electron/core/glossary/testing/fixtures';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';

test('a definition from the glossary is cited and marked as a glossary hit', async ({ page, served }, testInfo) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-glossary-'));
  fs.writeFileSync(path.join(folder, '术语表.md'), GLOSSARY_ZH);
  fs.writeFileSync(path.join(folder, 'ranking.md'), '# Ranking\n\nSift fuses the keyword and vector lists before MMR.\n');
  await page.goto(served.url);
  await createKb(page, 'Words');
  await addFolderAndIndex(page, folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat({ chunks: [{ content: 'RRF merges ranked lists with k = 60 [1].' }] });
  await ask(page, 'What does RRF do?');
  await waitTurnEnded(page);
  const answer = lastAnswer(page);
  const reference = answer.locator('.reference').first();
  await expect(reference.locator('.reference-path')).toHaveText('wiki/术语表.md');
  await expect(reference.locator('.glossary-mark')).toHaveText('glossary');
  await expect(answer.locator('.reference .glossary-mark')).toHaveCount(1);
  const chip = answer.getByRole('button', { name: /^Citation 1: / });
  await chip.hover();
  await expect(page.getByRole('tooltip').locator('.glossary-mark')).toHaveText('Glossary');
  await answer.getByText('Why these passages were found').click();
  await expect(answer.locator('.why-found tbody tr').first().locator('td').nth(2)).toHaveText('glossary definition of a term in the question');
  await snap(page, testInfo, 'glossary-mark');
});
