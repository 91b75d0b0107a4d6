/**
 * Screenshots of the chat thread for a person to look at (not a regression test): an answer being
 * written (steps above it) and finished (steps folded, references), at two window sizes, light and
 * dark, English and Chinese. Run with SIFT_SCREENS=1; PNGs land in test-results/screens/.
 */
import path from 'node:path';
import { expect, test } from './fixtures';
import { SCREENS_DIR, addFolderAndIndex, ask, createKb, forEachScreen, showScreen, waitTurnEnded } from './helpers';
import { citingReply, slowReply } from './replies';

test.skip(!process.env.SIFT_SCREENS, 'screenshots only on request (SIFT_SCREENS=1)');
test.setTimeout(300_000);

test('screens: the thread mid-answer and finished, 2 sizes × 2 themes × 2 languages', async ({ page, browser, served }) => {
  await page.goto(served.url);
  await createKb(page, '资料 Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page);

  await forEachScreen(browser, served.url, async (tab, name, locale) => {
    await tab.getByRole('tab').first().click();
    await tab.locator('.conversation-open').first().click();
    served.ollama.onChat(slowReply(25));
    const field = tab.locator('.composer textarea');
    await field.fill(locale === 'en' ? 'And the retry policy?' : '重试策略是什么？');
    await field.press('Enter');
    await expect(tab.locator('.message.streaming')).toContainText('Sentence 12 ', { timeout: 20_000 });
    await tab.screenshot({ path: path.join(SCREENS_DIR, `thread-live-${name}.png`), animations: 'disabled' });
    await expect(tab.locator('.message.streaming')).toHaveCount(0, { timeout: 30_000 });
    await tab.waitForTimeout(300);
    await tab.screenshot({ path: path.join(SCREENS_DIR, `thread-done-${name}.png`), animations: 'disabled' });
  });
});
