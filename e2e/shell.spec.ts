import { expect, test } from './fixtures';

test('the renderer boots against the browser host, lists and creates knowledge bases', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('empty.png') });

  await page.getByLabel('New knowledge base').fill('笔记 Notes');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { name: '笔记 Notes' })).toBeVisible();
  await expect(page.getByRole('button', { name: /笔记 Notes/ })).toHaveAttribute('aria-current', 'true');

  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('the name must not be empty');

  // Another process (the CLI) writes to the same data folder; a reload lists it from the database.
  await served.cli('kb', 'create', 'Papers');
  await page.reload();
  await expect(page.getByRole('button', { name: /Papers/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('created.png') });
});

test('a page opened without the token is refused, and says how to open Sift in English and Chinese', async ({ page, served }) => {
  const origin = new URL(served.url).origin;
  const response = await page.goto(origin + '/');
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'Open Sift with the link it printed' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '请用 Sift 打印的链接打开' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toHaveCount(0);
});
