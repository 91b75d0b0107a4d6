/**
 * Citation chips survive passages cut inside code blocks (issue #12): without Ollama every quoted
 * passage keeps its chip, and a model answer that opens a fence and never closes it still shows the
 * chips after that paragraph. A reference shows its passage from the words on the question, so a
 * passage cut in the tail of a code example shows the prose after it, as prose.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_DOCS } from '../electron/core/chat/testing/code-docs';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, waitTurnEnded } from './helpers';

test.beforeEach(async ({ page, served }) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-zod-'));
  for (const [name, text] of Object.entries(CODE_DOCS)) fs.writeFileSync(path.join(folder, name), text);
  await page.goto(served.url);
  await createKb(page, 'Zod');
  await addFolderAndIndex(page, folder);
  await showScreen(page, 'Chat');
});

test('without Ollama, every quoted passage keeps its chip, even one cut in code', async ({ page, served }) => {
  await served.ollama.close();
  await ask(page, 'safeParse vs parse');
  await waitTurnEnded(page, /^Answered with passages only/);
  const answer = lastAnswer(page);
  for (let n = 1; n <= Object.keys(CODE_DOCS).length; n++) {
    await expect(answer.getByRole('button', { name: new RegExp(`^Citation ${n}: `) })).toHaveCount(1);
  }
  // Quoted HTML stays text in the answer: no bold from the passage. A passage's fenced code is quoted as a
  // code block (issue #25 item 8), and its chip still follows it.
  const body = answer.locator('.answer-text');
  await expect(body.locator('b')).toHaveCount(0);
  await expect(body.locator('pre').first()).toBeVisible();
  await expect(body).toContainText('<b>async</b> ones need parseAsync [9]');
});

test('a fence the model never closes ends at its paragraph; the chips after it work', async ({ page, served }) => {
  const content = 'It quotes:\n```ts\nUser.parse(input) [3]\n\nUse safeParse [1] or parse [2].';
  served.ollama.onChat({ chunks: [{ content }] });
  await ask(page, 'safeParse vs parse');
  await waitTurnEnded(page);
  const answer = lastAnswer(page);
  const body = answer.locator('.answer-text');
  await expect(body.locator('pre')).toHaveCount(1);
  await expect(body.locator('pre')).toContainText('User.parse(input) [3]');
  for (const n of [1, 2]) {
    await expect(answer.getByRole('button', { name: new RegExp(`^Citation ${n}: `) })).toHaveCount(1);
  }
  await expect(answer.getByRole('button', { name: /^Citation 3: / })).toHaveCount(0);
});

test('a reference shows its passage from the words on the question: prose as prose, not the code before it', async ({ page, served }) => {
  const example = Array.from({ length: 30 }, (_, n) => `  const field${n} = schema.shape.field${n};`).join('\n');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-focus-'));
  fs.writeFileSync(
    path.join(folder, 'errors.md'),
    `# Handling errors\n\n\`\`\`ts\n${example}\n\`\`\`\n\nTo avoid a try/catch block, call safeParse and read its result object.\n`,
  );
  await served.ollama.close();
  await createKb(page, 'Examples');
  await addFolderAndIndex(page, folder);
  await showScreen(page, 'Chat');
  await ask(page, 'safeParse result object');
  await waitTurnEnded(page, /^Answered with passages only/);
  const quote = lastAnswer(page).getByRole('region', { name: 'References' }).locator('.reference-quote').first();
  await expect(quote).toContainText(/^…\s*To avoid a try\/catch block/);
  await expect(quote.locator('pre')).toHaveCount(0);
  await expect(quote).not.toContainText('field0');
  await expect(lastAnswer(page).locator('.answer-text')).toContainText('…To avoid a try/catch block');
});
