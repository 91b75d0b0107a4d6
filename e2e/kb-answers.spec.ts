/**
 * Answers about the whole folder, as the app shows them (issue #25 items 5, 6, 8): a folder without a README
 * gets an outline of its pages, each line cited; a catalogue question says how many pages mention the term and
 * how many it shows; an answer without a model shows a passage's code block as a code block.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';

function notesFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-notes-'));
  fs.mkdirSync(path.join(dir, 'guides'));
  fs.writeFileSync(path.join(dir, 'guides', 'setup.md'), [
    '# Setup guide', '', 'Install the agent. The **agent** needs&nbsp;a token:', '', '```sh', 'export AGENT_TOKEN=abc', 'agent start --pool_size 4', '```', '',
    '## Linux', '', 'Use apt.', '', '## macOS', '', 'Use brew.', '',
  ].join('\n'));
  for (let i = 1; i <= 14; i++) fs.writeFileSync(path.join(dir, `run-${i}.md`), `# Run ${i}\n\nThe flux-capacitor of run ${i} held.\n`);
  return dir;
}

test('outline, counted catalogue and a code block in an answer without a model', async ({ page, served }, testInfo) => {
  await served.ollama.close();
  await page.goto(served.url);
  await createKb(page, 'Notes');
  await addFolderAndIndex(page, notesFolder());
  await showScreen(page, 'Chat');

  await ask(page, "what's in here?");
  await waitTurnEnded(page);
  const outline = lastAnswer(page);
  await expect(outline).toContainText('This knowledge base has 15 pages in 2 folders.');
  await expect(outline.getByRole('button', { name: /^Citation 1: / }).first()).toBeVisible();
  await outline.getByText('This knowledge base has').scrollIntoViewIfNeeded();
  await snap(page, testInfo, '10-outline');

  await ask(page, 'which notes mention flux-capacitor?');
  await waitTurnEnded(page);
  await expect(lastAnswer(page)).toContainText('14 pages mention “flux-capacitor” (showing 12,');
  // the turn's search line says the same count, not the 12 pages shown
  await expect(page.getByText(/Found 14 pages · showing 12/).last()).toBeVisible();
  await lastAnswer(page).getByText('14 pages mention').scrollIntoViewIfNeeded();
  await snap(page, testInfo, '11-catalogue');

  await ask(page, 'how do I start the agent with a token?');
  await waitTurnEnded(page);
  const quoted = lastAnswer(page);
  await expect(quoted.locator('pre code').first()).toContainText('agent start --pool_size 4');
  await expect(quoted).not.toContainText('nbsp');
  await quoted.getByText('No language model is running').scrollIntoViewIfNeeded();
  await snap(page, testInfo, '12-code-block');
});
