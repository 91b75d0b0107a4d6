/**
 * Screenshots of the page reader for a person to look at (not a regression test): a rendered
 * Markdown page with a highlighted citation in the source pane, and the page tree, at two window
 * sizes, light and dark, English and Chinese. Run with SIFT_SCREENS=1; PNGs land in
 * test-results/screens/.
 */
import path from 'node:path';
import { expect, test } from './fixtures';
import { SCREENS_DIR, addFolderAndIndex, ask, createKb, forEachScreen, showScreen, waitTurnEnded } from './helpers';
import { citingReply } from './replies';

test.skip(!process.env.SIFT_SCREENS, 'screenshots only on request (SIFT_SCREENS=1)');
test.setTimeout(240_000);

test('screens: source pane and page tree, 2 sizes × 2 themes × 2 languages', async ({ page, browser, served }) => {
  await page.goto(served.url);
  await createKb(page, '资料 Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page);

  await forEachScreen(browser, served.url, async (tab, name) => {
    await tab.getByRole('tab').first().click();
    await tab.locator('.conversation-open').first().click();
    await tab.locator('.cite.valid').first().click();
    await expect(tab.locator('.reader mark.passage').first()).toBeInViewport();
    await tab.screenshot({ path: path.join(SCREENS_DIR, `source-${name}.png`), animations: 'disabled' });
    await tab.getByRole('tab').nth(1).click();
    await tab.getByRole('navigation').getByRole('button', { name: /部署指南/ }).click();
    await expect(tab.locator('.page-md h3')).toBeVisible();
    await tab.screenshot({ path: path.join(SCREENS_DIR, `tree-${name}.png`), animations: 'disabled' });
  });
});
