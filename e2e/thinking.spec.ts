/**
 * A reasoning model's thinking in the UI (issue #27): folded under the answer as "Thought for N s" (it opens to the
 * reasoning), never in the answer text even when the server sends only an orphan `</think>`, and in an export only
 * when the person ticks the box. Screenshots in English and Chinese.
 */
import fs from 'node:fs';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, closeSettings, createKb, lastAnswer, openSettings, showScreen, snap, waitTurnEnded } from './helpers';
import { tokens } from './replies';

const PLAN = 'The person asks about the gateway timeout. Passage 1 gives 30 seconds, so cite it.';
const ANSWER = 'The gateway gives up after **30 seconds** [1].';

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
});

test('the reasoning is folded under the answer, an orphan </think> never shows, exports leave it out unless asked', async ({ page, served }, testInfo) => {
  // The template opened <think> in the prompt: the stream has only the closing tag.
  served.ollama.onChat({ chunks: [...tokens(PLAN), { content: '</think>\n\n' }, ...tokens(ANSWER)], delayMs: 60 });
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const answer = lastAnswer(page);
  await expect(answer.locator('.answer-text')).toHaveText('The gateway gives up after 30 seconds 1.');
  await expect(answer).not.toContainText('</think>');
  const folded = answer.locator('details.thinking-block');
  await expect(folded.locator('summary')).toHaveText(/^Thought for \d+ s$/);
  await expect(folded.locator('.thinking-text')).toBeHidden();
  await folded.locator('summary').click();
  await expect(folded.locator('.thinking-text')).toHaveText(PLAN);
  await snap(page, testInfo, 'thinking-en');

  // After a reload the stored answer keeps its reasoning.
  await page.reload();
  await expect(lastAnswer(page).locator('details.thinking-block summary')).toHaveText(/^Thought for \d+ s$/);

  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const box = dialog.getByRole('checkbox', { name: /Include the model's reasoning/ });
  await expect(box).not.toBeChecked();
  let [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
  expect(fs.readFileSync((await download.path())!, 'utf8')).not.toContain('Passage 1 gives');
  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  await box.check();
  [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
  expect(fs.readFileSync((await download.path())!, 'utf8')).toContain(`> ${PLAN}`);

  const settings = await openSettings(page);
  await settings.getByLabel('Language').selectOption('zh-CN');
  await closeSettings(page);
  const zhAnswer = page.getByRole('article', { name: '回答' }).last();
  await expect(zhAnswer.locator('details.thinking-block summary')).toHaveText(/^推理了 \d+ 秒$/);
  await zhAnswer.locator('details.thinking-block summary').click();
  await snap(page, testInfo, 'thinking-zh');
});
