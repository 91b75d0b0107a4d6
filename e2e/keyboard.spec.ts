/**
 * A conversation walked by keyboard only (issue #27, item 5): each answer's citation chips and its reference cards are
 * one Tab stop each, the arrow keys move inside them; `/` goes to the question box from anywhere and `?` lists the
 * shortcuts; Enter on a chip opens its source, Esc closes it and focus is back on that chip; closing Settings (or the
 * shortcuts help) gives focus back to where it was. Screenshots in English and Chinese.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFolderAndIndex, createKb, showScreen, snap, waitTurnEnded } from './helpers';
import { tokens } from './replies';

/** An answer citing passages 1–3 over and over: 24 chips, as a long answer has. */
const CHIPPY = Array.from({ length: 24 }, (_, i) => `Point ${i + 1} holds [${(i % 3) + 1}].`).join(' ');

/** The page's focused element as these tests read it (this e2e code has no DOM types). */
type Focused = { id: string; getAttribute(name: string): string | null; textContent: string | null; blur(): void } | null;
type PageGlobals = { document: { activeElement: Focused } };

/** The focused element, described: its accessible name or text, and whether it is the question box. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = (globalThis as unknown as PageGlobals).document.activeElement;
    return { label: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '', question: el?.id === 'composer-question' };
  });
}

/** Tab from the start of the page until the question box has focus; the number of presses it took. */
async function tabsToQuestion(page: Page): Promise<number> {
  await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.blur());
  for (let n = 1; n <= 400; n++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).question) return n;
  }
  return Infinity;
}

/** Send a question by keyboard only: Ctrl+/ to the question box (from anywhere, a field too), type, Enter. */
async function askByKeyboard(page: Page, question: string): Promise<void> {
  await page.keyboard.press('Control+/');
  await expect.poll(async () => (await focused(page)).question).toBe(true);
  await page.keyboard.type(question);
  await page.keyboard.press('Enter');
}

test('a conversation walked by keyboard only', async ({ page, served }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  // A follow-up is rewritten by one short request first; the first question is not.
  for (let i = 0; i < 4; i++) {
    if (i > 0) served.ollama.onChat({ chunks: [{ content: `Gateway question ${i + 1}` }] });
    served.ollama.onChat({ chunks: tokens(CHIPPY) });
  }
  const answers = page.getByRole('article', { name: 'Answer' });
  const questions = ['How does the gateway retry?', 'And the timeout?', 'And rate limits?', 'And deployment?'];
  for (const [i, q] of questions.entries()) {
    await askByKeyboard(page, q);
    await expect(page.getByRole('button', { name: 'Stop answer' })).toHaveCount(0);
    await expect(answers).toHaveCount(i + 1);
    await waitTurnEnded(page, /^Done$/);
  }
  await expect(answers).toHaveCount(4);
  await expect(answers.first().getByRole('button', { name: /^Citation \d/ })).toHaveCount(24);

  // 96 chips and a dozen references, yet the question box is a few dozen Tab presses from the top.
  const presses = await tabsToQuestion(page);
  console.log(`Tab presses from the top of the page to the question box: ${presses}`);
  expect(presses).toBeLessThan(50);

  // Shift+Tab from the question box walks back into the last answer: past its actions, then its references, then
  // its chips as one stop; the arrow keys move between the chips.
  const last = answers.last();
  const firstChip = last.getByRole('button', { name: /^Citation 1: / }).first();
  // `/` outside a text field goes to the question box.
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).question).toBe(false);
  await page.keyboard.press('/');
  expect((await focused(page)).question).toBe(true);
  await expect(page.getByLabel('Question')).toHaveValue('');
  for (let n = 0; n < 12 && !(await firstChip.evaluate((el) => el === el.ownerDocument.activeElement)); n++) await page.keyboard.press('Shift+Tab');
  await expect(firstChip).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(last.getByRole('button', { name: /^Citation 2: / }).first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(last.getByRole('button', { name: /^Citation 3: / }).last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(firstChip).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const secondChip = last.getByRole('button', { name: /^Citation 2: / }).first();

  // Enter opens the source beside the thread with focus in it; Esc closes it and focus is back on the chip.
  await page.keyboard.press('Enter');
  const reader = page.getByRole('complementary', { name: 'Source' });
  await expect(reader).toBeVisible();
  await expect(reader).toBeFocused();
  await expect(reader.locator('mark.passage').first()).toBeVisible();
  await snap(page, testInfo, 'keyboard-source-open-en');
  await page.keyboard.press('Escape');
  await expect(reader).toHaveCount(0);
  await expect(secondChip).toBeFocused();

  // The references are one stop after the chips; ArrowDown moves to the next card.
  await page.keyboard.press('Tab');
  const refs = last.getByRole('region', { name: 'References' }).getByRole('button');
  await expect(refs.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(refs.nth(1)).toBeFocused();

  // Settings opened from the keyboard, closed with Esc: focus is back on its button.
  const gear = page.getByRole('complementary', { name: 'Knowledge bases' }).getByRole('button', { name: 'Settings' });
  await gear.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toHaveCount(0);
  await expect(gear).toBeFocused();

  // `?` lists the shortcuts, `/` among them; Esc gives focus back to the reference card.
  await refs.nth(1).focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Go to the question box');
  await expect(help.locator('kbd', { hasText: /^\/$/ })).toBeVisible();
  await snap(page, testInfo, 'keyboard-shortcuts-en');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(refs.nth(1)).toBeFocused();

  // In Chinese, the same keys; the help speaks Chinese.
  await gear.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Language').selectOption('zh-CN');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: '键盘快捷键' })).toContainText('转到提问框');
  await snap(page, testInfo, 'keyboard-shortcuts-zh');
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  expect((await focused(page)).question).toBe(true);
});
