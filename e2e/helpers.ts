/** Steps the end-to-end tests share, written the way a person works the UI (roles and labels only). */
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/** Create a knowledge base from the sidebar and wait until it is the selected one. */
export async function createKb(page: Page, name: string): Promise<void> {
  await page.getByLabel('New knowledge base').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Open a screen of the selected knowledge base by its tab. */
export async function showScreen(page: Page, name: 'Chat' | 'Pages' | 'Folders & indexing'): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** Add a folder through the path field and wait for its indexing run to finish. */
export async function addFolderAndIndex(page: Page, folder: string): Promise<void> {
  await showScreen(page, 'Folders & indexing');
  await page.getByLabel('Add a folder').fill(folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('list', { name: 'Folders of this knowledge base' })).toContainText(folder);
  await waitIndexed(page);
}

/** Wait until the indexing panel says the knowledge base is up to date. */
export async function waitIndexed(page: Page): Promise<void> {
  await expect(page.getByText('Up to date')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('progressbar', { name: 'Indexing progress' })).toHaveAttribute('aria-valuenow', '100');
}

/** Type a question into the composer and send it with Enter. */
export async function ask(page: Page, question: string): Promise<void> {
  const field = page.getByLabel('Question');
  await field.fill(question);
  await field.press('Enter');
}

/** The last answer of the open conversation. */
export function lastAnswer(page: Page) {
  return page.getByRole('article', { name: 'Answer' }).last();
}

/** Wait for the current turn to end (the status bar's last step is no longer "Answering…"). */
export async function waitTurnEnded(page: Page, last: RegExp = /^(Done|Stopped|Answered with passages only.*)$/): Promise<void> {
  await expect(page.getByRole('list', { name: 'Turn progress' }).getByRole('listitem').last()).toHaveText(last, { timeout: 30_000 });
}

/** Save a screenshot as a test artifact (in test-results/) under `name`. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), animations: 'disabled' });
}
