/**
 * Languages and themes: the whole UI switches between English and Simplified Chinese live (no
 * reload), follows the system's language by default, formats dates by language; light and dark
 * follow the system unless pinned; another window's change applies too. Screenshots of the chat
 * with an answer in each language and theme.
 */
import { expect, test } from './fixtures';
import {
  addFolderAndIndex, ask, backgroundOf, closeSettings, createKb, hasMarker, lastAnswer, openSettings, setMarker, showScreen, snap, waitTurnEnded,
} from './helpers';
import { citingReply } from './replies';

const LIGHT_BG = 'rgb(251, 251, 250)';
const DARK_BG = 'rgb(24, 24, 27)';

test('language and theme switch live from the settings; screenshots in English and Chinese, light and dark', async ({ page, served }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(served.url);
  await createKb(page, '资料 Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  // Set on the window: a reload would lose it.
  await setMarker(page);

  let dialog = await openSettings(page);
  await dialog.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await closeSettings(page);
  expect(await backgroundOf(page)).toBe(LIGHT_BG);
  await snap(page, testInfo, 'en-light');

  dialog = await openSettings(page);
  await dialog.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await closeSettings(page);
  // Pinned dark wins over a light system.
  expect(await backgroundOf(page)).toBe(DARK_BG);
  await snap(page, testInfo, 'en-dark');

  dialog = await openSettings(page);
  await dialog.getByLabel('Language').selectOption('zh-CN');
  // The dialog itself switches at once.
  dialog = page.getByRole('dialog', { name: '设置' });
  await expect(dialog.getByLabel('语言')).toHaveValue('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await closeSettings(page);
  await expect(page.getByRole('tab', { name: '对话' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: '文件夹与索引' })).toBeVisible();
  // Done, the steps above the answer fold to one line: what was found, and how it ended.
  await expect(page.getByRole('list', { name: '回答进度' }).getByRole('listitem')).toHaveText([/^找到 \d+ 个页面$/, '完成']);
  const answer = page.getByRole('article', { name: '回答' }).last();
  await expect(answer.getByRole('region', { name: '参考来源' })).toBeVisible();
  await expect(answer.getByRole('button', { name: /^引用 1：/ }).first()).toBeVisible();
  await expect(answer.getByRole('button', { name: '复制为 Markdown' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: '问题' })).toHaveAttribute('placeholder', '输入问题…');
  // Dates by language, short enough for the list (a time today, a Chinese month and day this year).
  const row = page.getByRole('navigation', { name: '对话' }).getByRole('button', { name: /^How long until/ });
  await expect(row).toContainText(/2 条消息 · (\d{1,2}:\d{2}|\d{1,2}月\d{1,2}日)/);
  expect(await hasMarker(page)).toBe(true);
  await snap(page, testInfo, 'zh-dark');

  dialog = await openSettings(page);
  await dialog.getByLabel('主题').selectOption('light');
  await closeSettings(page);
  expect(await backgroundOf(page)).toBe(LIGHT_BG);
  await snap(page, testInfo, 'zh-light');

  // Following the system: no data-theme, the media query decides.
  dialog = await openSettings(page);
  await dialog.getByLabel('主题').selectOption('system');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await backgroundOf(page)).toBe(DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await backgroundOf(page)).toBe(LIGHT_BG);

  // Back to English, and the numbers and dates with it.
  await dialog.getByLabel('语言').selectOption('en');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  await closeSettings(page);
  await expect(page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /^How long until/ })).toContainText(/2 messages · (\d{1,2}:\d{2}( [AP]M)?|[A-Z][a-z]{2} \d{1,2})/);
  await expect(lastAnswer(page).getByRole('region', { name: 'References' })).toBeVisible();
});

test('another window’s change applies here; a Chinese system gets the Chinese UI by default', async ({ browser, page, served }) => {
  await page.goto(served.url);
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();

  // A second window (same core) switches language and theme: this one follows through settings.changed.
  const other = await page.context().newPage();
  await other.goto(served.url);
  const dialog = await openSettings(other);
  await dialog.getByLabel('Language').selectOption('zh-CN');
  await other.getByRole('dialog', { name: '设置' }).getByLabel('主题').selectOption('dark');
  await expect(page.getByRole('heading', { name: '还没有知识库' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await other.close();

  // Back to "follow the system": a browser whose language is Chinese shows Chinese, an English one English.
  await openSettings(page);
  await page.getByRole('dialog', { name: '设置' }).getByLabel('语言').selectOption('system');
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
  const zhContext = await browser.newContext({ locale: 'zh-CN' });
  try {
    const zhPage = await zhContext.newPage();
    await zhPage.goto(served.url);
    await expect(zhPage.getByRole('heading', { name: '还没有知识库' })).toBeVisible();
    await expect(zhPage.getByLabel('新建知识库')).toBeVisible();
    await expect(zhPage.locator('html')).toHaveAttribute('lang', 'zh-CN');
  } finally {
    await zhContext.close();
  }
});
