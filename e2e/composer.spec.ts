/**
 * The composer and the conversation list: @-mentions as chips (sent as `[[wiki/…]]`), Backspace
 * removing a whole chip, a new conversation closing the source pane, titles from the first question without its
 * @-mentions, the no-model notice in the UI's language, and bare URLs ending before Chinese punctuation.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { PAGES } from './corpus';
import { expect, test } from './fixtures';
import { addFolderAndIndex, createKb, lastAnswer, openSettings, showScreen, waitTurnEnded } from './helpers';

/** The last answer and the end of the turn, in the Chinese UI. */
const lastAnswerZh = (page: Page) => page.getByRole('article', { name: '回答' }).last();
async function turnEndedZh(page: Page, last: RegExp): Promise<void> {
  await expect(page.getByRole('list', { name: '回答进度' }).getByRole('listitem').last()).toHaveText(last, { timeout: 30_000 });
}
import { citingReply, tokens } from './replies';

/** Screens for people to look at, kept out of the test output folder that each run clears. */
async function screen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.resolve('test-results', 'screens', `${name}.png`), animations: 'disabled' });
}

test.beforeEach(async ({ page, served }) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
});

test('an @-mention becomes a chip, Backspace removes it whole, and the reference is what is sent', async ({ page, served }) => {
  served.ollama.onChat(citingReply(5));
  const field = page.getByLabel('Question');
  const chips = page.locator('.composer-backdrop mark.chip');
  await field.click();
  await field.pressSequentially('How do I prepare? @部署');
  await field.press('Enter');
  await expect(field).toHaveValue('How do I prepare? @部署指南 ');
  await expect(chips).toHaveText(['@部署指南']);
  // The space after the chip, then the whole chip.
  await field.press('Backspace');
  await field.press('Backspace');
  await expect(field).toHaveValue('How do I prepare? ');
  await expect(chips).toHaveCount(0);

  await field.pressSequentially('@部署');
  await field.press('Enter');
  await field.pressSequentially('and @gw');
  await field.press('Enter');
  await field.pressSequentially('please');
  await expect(chips).toHaveText(['@部署指南', '@API Gateway']);
  await expect(field).not.toHaveValue(/\[\[/);
  await screen(page, 'composer-chips');
  await field.press('Enter');

  await expect(page.getByRole('article', { name: 'Your message' }).last().getByRole('button', { name: '@部署指南' })).toBeVisible();
  await waitTurnEnded(page, /^Done$/);
  await expect(field).toHaveValue('');
  const sent = served.ollama.requests.filter((r) => r.path === '/api/chat').pop()!;
  expect(JSON.stringify(sent.body.messages)).toContain(`[1] (${PAGES.deploy}`);
  expect(JSON.stringify(sent.body.messages)).not.toContain('@部署指南');

  // The source pane belongs to the conversation it was opened from.
  await lastAnswer(page).getByRole('button', { name: /^Citation 1: / }).first().click();
  const reader = page.getByRole('complementary', { name: 'Source' });
  await expect(reader).toBeVisible();
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'New conversation' }).click();
  await expect(reader).toHaveCount(0);
});

test('in Chinese: titles from the whole question, dates that fit, the no-model notice in Chinese, links that end', async ({ page, served }) => {
  const dialog = await openSettings(page);
  await dialog.getByLabel('Language').selectOption('zh-CN');
  await page.keyboard.press('Escape');
  const field = page.getByLabel('问题');
  const list = page.getByRole('navigation', { name: '对话' });

  // A model's bare URL stops before the Chinese punctuation after it.
  served.ollama.onChat({ chunks: tokens('服务地址是 http://127.0.0.1:11434），以下是说明 [1]。'), delayMs: 5 });
  await field.click();
  await field.pressSequentially('@gw');
  await field.press('Enter');
  await field.pressSequentially('里说的阈值是多少？');
  await expect(page.locator('.composer-backdrop mark.chip')).toHaveText(['@API Gateway']);
  await screen(page, 'composer-chips-zh');
  await field.press('Enter');
  await turnEndedZh(page, /^完成$/);
  const link = lastAnswerZh(page).getByRole('link', { name: 'http://127.0.0.1:11434' });
  await expect(link).toHaveAttribute('href', 'http://127.0.0.1:11434');
  await expect(lastAnswerZh(page)).toContainText('http://127.0.0.1:11434），以下是说明');
  // Named after what was asked: the @-mention is not part of the title (issue #27).
  await expect(list.getByRole('button', { name: /^里说的阈值是多少？/ })).toBeVisible();
  await expect(list.getByRole('button', { name: /gateway|API Gateway/ })).toHaveCount(0);

  // Without a model, an English question in the Chinese UI is told so in Chinese.
  await served.ollama.close();
  await list.getByRole('button', { name: '新对话' }).click();
  await field.fill('What does the gateway log when a connection drops?');
  await field.press('Enter');
  await turnEndedZh(page, /^仅以段落原文作答/);
  await expect(lastAnswerZh(page)).toContainText('没有正在运行的语言模型（无法连接 http://127.0.0.1:');
  await expect(lastAnswerZh(page)).not.toContainText('No language model is running');
  await expect(list.getByRole('button', { name: /^What does the gateway log when a connection drops\?/ })).toBeVisible();

  // Every date and title stays inside its row.
  const overflowing = await list.locator('.conversation-meta, .conversation-title').evaluateAll((els) =>
    els
      .filter((el) => el.getBoundingClientRect().right > el.closest('li')!.getBoundingClientRect().right + 1
        || (el.classList.contains('conversation-meta') && el.scrollWidth > el.clientWidth + 1))
      .map((el) => el.textContent),
  );
  await screen(page, 'conversation-list-zh');
  expect(overflowing).toEqual([]);
});
