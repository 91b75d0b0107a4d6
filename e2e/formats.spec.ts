/**
 * Spreadsheets, slide decks and e-books in the browser UI against the real core (issue #26 items 2-4):
 * the files are written in the test (xlsx by SheetJS, pptx and epub zipped by the parser tests' builders),
 * indexed through the app, found by a question, and opened from the references. A sheet shows as a table
 * with the cited rows highlighted and in view (only a window of its 10,000 rows rendered), a deck as
 * labelled slides with speaker notes apart, a book as labelled chapters.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { Page } from '@playwright/test';
import { buildEpub, buildPptx } from '../electron/core/ingest/parse/fixtures-packages';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, invokeCore, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';

/** Data rows of the big sheet (10,000: it must open without freezing the UI); the one about Zanzibar is spreadsheet row 2,400. */
const ROWS = 10_000;
const ZANZIBAR_ROW = 2400;

async function writeFolder(dir: string): Promise<void> {
  const sales: unknown[][] = [['地区', 'City', 'Q3 revenue', '备注']];
  for (let i = 0; i < ROWS; i++) {
    const row = i + 2;
    sales.push(row === ZANZIBAR_ROW ? ['东非', 'Zanzibar', '7.7M', '新开的分店'] : [`区域 ${i % 7}`, `Town ${row}`, `${(row % 50) / 10}M`, row % 3 ? '' : '正常']);
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(sales), '销售');
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Topic', 'Owner'], ['Kickoff 启动', 'Lin'], ['Budget review', 'Ana']]), 'Notes');
  fs.writeFileSync(path.join(dir, '季度报表.xlsx'), XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  fs.writeFileSync(path.join(dir, 'stock.csv'), 'Item,Qty\nbolts,40\nwashers,12\nquokka plush,3\n');
  const deck = await buildPptx([
    { title: 'Roadmap 路线图', body: ['Where we go next'] },
    { title: 'Harbour project', body: ['The lighthouse opens in May', '灯塔五月开放'], notes: ['Remind them the ferry schedule changes'] },
    { title: 'Questions', body: ['Thank you'] },
  ]);
  fs.writeFileSync(path.join(dir, 'deck.pptx'), deck);
  const book = await buildEpub(
    [
      { label: 'Arrival', body: '<h1>Arrival</h1><p>The train came in late.</p>' },
      { label: 'The market', body: '<h1>The market</h1><h2>Spices</h2><p>Saffron and cardamom were sold by weight at the pavilion.</p>' },
    ],
    { title: 'A Journey' },
  );
  fs.writeFileSync(path.join(dir, 'journey.epub'), book);
}

/** Ask with Ollama gone (passages only) and open the reference whose "where" reads `where`; returns the source pane and that text. */
async function openReference(page: Page, question: string, where: RegExp) {
  await showScreen(page, 'Chat');
  await ask(page, question);
  await waitTurnEnded(page, /^Answered with passages only/);
  const references = lastAnswer(page).getByRole('region', { name: 'References' });
  const reference = references.getByRole('listitem').filter({ has: page.locator('.reference-where', { hasText: where }) }).first();
  await expect(reference).toBeVisible();
  const whereText = (await reference.locator('.reference-where').textContent()) ?? '';
  await reference.getByRole('button').first().click();
  return { pane: page.getByRole('complementary', { name: 'Source' }), where: whereText };
}

let dir = '';
test.beforeEach(async ({ page, served }) => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-formats-'));
  await writeFolder(dir);
  await served.ollama.close();
  await page.goto(served.url);
  await createKb(page, 'Formats');
  await addFolderAndIndex(page, dir);
});
test.afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a cited spreadsheet row opens in its table, highlighted and in view, the big sheet windowed', async ({ page }, testInfo) => {
  const { pane, where } = await openReference(page, 'Zanzibar 新开的分店', /^sheet 销售 · rows? [\d,]+/);
  // The passage is a block of rows around row 2,400; the reference names them, the table marks exactly those.
  const [from, to] = [...where.matchAll(/[\d,]+/g)].map((m) => Number(m[0].replaceAll(',', '')));
  expect(from).toBeLessThanOrEqual(ZANZIBAR_ROW);
  expect(to ?? from).toBeGreaterThanOrEqual(ZANZIBAR_ROW);
  const table = pane.getByRole('table', { name: /^Sheet 销售: Rows/ });
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Row', '地区', 'City', 'Q3 revenue', '备注']);
  const cited = table.locator('tr[aria-current="true"]');
  await expect(cited).toHaveCount((to ?? from!) - from! + 1);
  await expect(cited.first().getByRole('rowheader')).toHaveText(new RegExp(`^${from}`));
  const zanzibar = cited.filter({ hasText: 'Zanzibar' });
  await expect(zanzibar.getByRole('rowheader')).toHaveText(/^2400/);
  await expect(zanzibar.getByRole('cell')).toHaveText(['东非', 'Zanzibar', '7.7M', '新开的分店']);
  await expect(zanzibar).toBeInViewport();
  await expect(cited.first()).toBeInViewport();
  await expect(pane.locator('.passage-note')).toContainText(/^Cited rows [\d,]+–[\d,]+ of sheet “销售”\./);
  // Only a window of the 10,000 rows is in the page, with the ways to see more.
  expect(await table.locator('tbody tr').count()).toBeLessThanOrEqual(202);
  await expect(table.getByRole('button', { name: 'Show 200 earlier rows' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Show 200 more rows' })).toBeVisible();
  await snap(page, testInfo, 'sheet-cited-rows');

  // Keyboard: the buttons are in the tab order and work with Enter.
  await table.getByRole('button', { name: 'Show 200 more rows' }).focus();
  await page.keyboard.press('Enter');
  expect(await table.locator('tbody tr').count()).toBeGreaterThan(300);
  await expect(zanzibar).toHaveCount(1);
  // The other sheet is a table of its own.
  await expect(pane.getByRole('table', { name: 'Sheet Notes: Rows 2–3 shown of 2' })).toBeVisible();
});

test('a passage of a sheet’s name and header marks its header row', async ({ page }, testInfo) => {
  const { pane } = await openReference(page, 'Topic Owner', /^sheet Notes$/);
  const notes = pane.getByRole('table', { name: /^Sheet Notes/ });
  await expect(notes.locator('thead tr[aria-current="true"]')).toHaveCount(1);
  await expect(notes.locator('thead tr[aria-current="true"]')).toBeInViewport();
  await expect(pane.getByText('Cited: the name and header row of sheet “Notes”.')).toBeVisible();
  await snap(page, testInfo, 'sheet-cited-header');
});

test('a csv shows as one table; the Pages screen opens a sheet at its top', async ({ page }, testInfo) => {
  const { pane } = await openReference(page, 'quokka plush', /^rows 2–4$/);
  const table = pane.getByRole('table', { name: 'stock: Rows 2–4 shown of 3' });
  await expect(table.locator('tr[aria-current="true"]')).toHaveCount(3);
  await expect(table.getByRole('row', { name: /^4 / }).getByRole('cell')).toHaveText(['quokka plush', '3']);
  await showScreen(page, 'Pages');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /季度报表/ }).click();
  const text = page.getByLabel('Page text');
  await expect(text.getByRole('heading', { name: 'Sheet 销售' })).toBeVisible();
  await expect(text.getByRole('table').first().getByRole('rowheader').first()).toHaveText('2');
  await expect(text.locator('tr[aria-current]')).toHaveCount(0);
  await expect(page.getByText(/^SHEET · .* · 2 sheets$/)).toBeVisible();
  await snap(page, testInfo, 'sheet-pages-screen');
});

test('a cited slide opens as "Slide 2" with its words highlighted and its speaker notes set apart', async ({ page }, testInfo) => {
  const { pane } = await openReference(page, 'lighthouse ferry', /^slide 2 · Harbour project$/);
  const slide = pane.getByRole('region', { name: 'Slide 2' });
  await expect(slide).toHaveAttribute('aria-current', 'true');
  await expect(slide.locator('mark.passage').first()).toBeInViewport();
  await expect(slide.getByRole('heading', { name: 'Harbour project' })).toBeVisible();
  const notes = slide.getByRole('complementary', { name: 'Speaker notes' });
  await expect(notes).toContainText('Remind them the ferry schedule changes');
  await expect(pane.getByRole('region', { name: 'Slide 1' })).not.toHaveAttribute('aria-current', 'true');
  await expect(pane.getByText('Passage from slide 2.')).toBeVisible();
  await snap(page, testInfo, 'slide-cited');
  // The chip's preview and the table of found passages say where the passage is too.
  const answer = lastAnswer(page);
  const number = await answer.locator('.reference').filter({ hasText: 'slide 2 · Harbour project' }).first().locator('.reference-number').textContent();
  await answer.getByRole('button', { name: `Citation ${number}: Roadmap 路线图` }).first().hover();
  await expect(page.getByRole('tooltip')).toContainText('slide 2 · Harbour project');
  await answer.getByText('Why these passages were found').click();
  await expect(answer.locator('.why-found-where', { hasText: /^slide 2 · Harbour project$/ }).first()).toBeVisible();
});

test('a cited chapter opens as "Chapter 2" with its heading path', async ({ page }, testInfo) => {
  const { pane } = await openReference(page, 'saffron cardamom pavilion', /^chapter 2 · The market/);
  const chapter = pane.getByRole('region', { name: 'Chapter 2' });
  await expect(chapter).toHaveAttribute('aria-current', 'true');
  await expect(chapter.locator('mark.passage').first()).toBeInViewport();
  await expect(pane.getByText('Passage from chapter 2: The market.')).toBeVisible();
  await expect(chapter.getByRole('heading', { name: 'Spices' })).toBeVisible();
  await snap(page, testInfo, 'chapter-cited');
});

test('in Chinese: the references say 工作表 and 第 N 行, the table and slides are labelled in Chinese', async ({ page, served }, testInfo) => {
  await invokeCore(served.url, 'settings.set', { patch: { language: 'zh-CN' } });
  await page.reload();
  await page.getByRole('tab', { name: '对话' }).click();
  const field = page.getByLabel('问题');
  await field.fill('Zanzibar 新开的分店');
  await field.press('Enter');
  const references = page.getByRole('region', { name: '参考来源' }).last();
  const reference = references.getByRole('listitem').filter({ has: page.locator('.reference-where', { hasText: /^工作表 销售 · 第 [\d,]+–[\d,]+ 行$/ }) });
  await expect(reference.first()).toBeVisible({ timeout: 30_000 });
  await reference.first().getByRole('button').first().click();
  const pane = page.getByRole('complementary', { name: '来源' });
  const table = pane.getByRole('table', { name: /^工作表 销售：显示第/ });
  await expect(table.getByRole('columnheader').first()).toHaveText('行');
  await expect(table.locator('tr[aria-current="true"]').filter({ hasText: 'Zanzibar' })).toBeInViewport();
  await expect(pane.locator('.passage-note')).toContainText(/^引用了工作表“销售”的第 [\d,]+–[\d,]+ 行。/);
  await snap(page, testInfo, 'zh-sheet-cited-rows');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, testInfo, 'zh-sheet-cited-rows-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('tab', { name: '页面' }).click();
  await page.getByRole('navigation', { name: '页面' }).getByRole('button', { name: /Roadmap 路线图/ }).click();
  const text = page.getByLabel('页面正文');
  await expect(text.getByRole('region', { name: '第 2 张幻灯片' }).getByRole('complementary', { name: '演讲者备注' })).toContainText('ferry');
  await expect(page.getByText(/ · 3 张幻灯片$/)).toBeVisible();
  await snap(page, testInfo, 'zh-slides-page');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, testInfo, 'zh-slides-page-dark');
});
