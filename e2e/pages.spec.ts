/**
 * The page reader and the source pane against the real core: Markdown pages rendered with the cited
 * span highlighted on its characters, jumping to the start of a passage, an open page following its
 * file on disk, and a page tree that keeps each folder apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, snap, waitTurnEnded } from './helpers';
import { citingReply } from './replies';

const RICH = `# Rich page

![build badge](https://img.shields.io/badge/build-passing-green.svg) Strong &#128170; and <b>bold tag</b>.

## Steps

1. First **important** step
2. Second step with \`inline code\`

| Column A | Column B |
|----------|----------|
| cell one | cell two |

\`\`\`js
const answer = 42;
\`\`\`

[External site](https://example.com/docs) and [bad link](javascript:alert(1)).
`;

const made: string[] = [];
test.afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder with `files` (relative path → content), removed after the test. */
function folderWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-pages-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Ask the gateway question and open citation 1 in the source pane; returns the pane. */
async function openFirstCitation(
  page: Page,
  served: { ollama: { onChat(reply: unknown): void } },
  question = 'How long until the gateway times out?',
): Promise<Locator> {
  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, question);
  await waitTurnEnded(page);
  await lastAnswer(page).getByRole('button', { name: /^Citation 1: / }).first().click();
  return page.getByRole('complementary', { name: 'Source' });
}

test('a Markdown page is rendered: headings, lists, tables, code, safe links, no remote images', async ({ page, served }, testInfo) => {
  const dir = folderWith({ 'rich.md': RICH });
  await page.goto(served.url);
  await createKb(page, 'Rich');
  await addFolderAndIndex(page, dir);
  await showScreen(page, 'Pages');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /Rich page/ }).click();
  const text = page.getByLabel('Page text');
  await expect(text.getByRole('heading', { name: 'Steps', exact: true })).toBeVisible();
  await expect(text).not.toContainText('## Steps');
  await expect(text).not.toContainText('&#128170;');
  await expect(text).toContainText('Strong 💪 and <b>bold tag</b>.');
  await expect(text.locator('b')).toHaveCount(0);
  await expect(text.locator('strong')).toHaveText('important');
  await expect(text.getByRole('listitem')).toHaveCount(2);
  await expect(text.getByRole('cell', { name: 'cell two' })).toBeVisible();
  await expect(text.locator('pre code')).toHaveText('const answer = 42;\n');
  await expect(text.locator('img')).toHaveCount(0);
  await expect(text.getByText('build badge')).toBeVisible();
  const external = text.getByRole('link', { name: 'External site' });
  await expect(external).toHaveAttribute('href', 'https://example.com/docs');
  await expect(external).toHaveAttribute('target', '_blank');
  await expect(external).toHaveAttribute('rel', 'noreferrer noopener');
  await expect(text.getByRole('link', { name: 'bad link' })).toHaveCount(0);
  await expect(text.getByText('bad link')).toBeVisible();
  await snap(page, testInfo, 'pages-01-rendered-markdown');
});

test('the source pane renders the cited Markdown page and highlights exactly the quoted passage', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  const reader = await openFirstCitation(page, served);
  const text = reader.getByLabel('Page text');
  await expect(text.getByRole('heading', { name: 'API Gateway', exact: true })).toBeVisible();
  await expect(text).not.toContainText('# API Gateway');
  const quote = lastAnswer(page).getByRole('region', { name: 'References' }).getByRole('listitem').first().locator('blockquote');
  await expect(quote).not.toContainText('##');
  const marked = (await text.locator('mark').allTextContents()).join('');
  expect(marked.length).toBeGreaterThan(20);
  expect(marked).toBe((await quote.textContent())!);
  expect(marked).not.toMatch(/[#*]/);
  await expect(reader.getByText(/^Passage from the section “.+”\./)).toBeVisible();
  await snap(page, testInfo, 'pages-02-source-pane');
});

test('a passage taller than the pane opens at its first line', async ({ page, served }, testInfo) => {
  // One long section: the passage starts deep inside it (the pane has to scroll) with no heading
  // of its own, so its first highlighted line is one long run of text.
  const filler = Array.from({ length: 400 }, (_, i) => `- filler line ${i + 1}`).join('\n');
  const items = Array.from({ length: 60 }, (_, i) => `- zebra valve ${i + 1}`).join('\n');
  const dir = folderWith({ 'valves.md': `# Valves\n\n${filler}\n${items}\n` });
  await page.setViewportSize({ width: 1000, height: 560 });
  await page.goto(served.url);
  await createKb(page, 'Valves');
  await addFolderAndIndex(page, dir);
  const reader = await openFirstCitation(page, served, 'zebra valve checklist');
  const text = reader.getByLabel('Page text');
  const first = text.locator('mark').first();
  await expect(first).toBeVisible();
  const pane = (await text.boundingBox())!;
  const all = await text.locator('mark').evaluateAll((marks) => marks.map((m) => m.getBoundingClientRect().bottom));
  // The passage is taller than the pane (else this test proves nothing) and its first line shows.
  expect(Math.max(...all) - (await first.boundingBox())!.y).toBeGreaterThan(pane.height);
  expect(await text.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await expect
    .poll(async () => (await first.boundingBox())!.y, { message: 'the first highlighted line is inside the pane' })
    .toBeGreaterThanOrEqual(pane.y);
  expect((await first.boundingBox())!.y).toBeLessThan(pane.y + pane.height / 2);
  await expect(reader.getByText('Passage from the section “Valves”.')).toBeVisible();
  await snap(page, testInfo, 'pages-03-tall-passage');
});

test('an open page follows its file when it changes on disk', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Pages');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /API Gateway/ }).click();
  const text = page.getByLabel('Page text');
  await expect(text).toContainText('Each client may send 100 requests per minute');
  const file = path.join(served.folder, 'notes', 'gateway.md');
  fs.appendFileSync(file, '\n## Retries\n\nThe gateway now retries twice before giving up.\n');
  await expect(text.getByRole('heading', { name: 'Retries' })).toBeVisible({ timeout: 30_000 });
  await expect(text).toContainText('retries twice before giving up');
  await snap(page, testInfo, 'pages-04-refreshed');
});

test('the page tree: one root per folder, the first folder not buried, titles and file names, numeric order', async ({ page, served }, testInfo) => {
  const big = folderWith(
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`note-${i + 1}.md`, `# Archived note ${i + 1}\n\nOld text ${i + 1}.\n`])),
  );
  await page.goto(served.url);
  await createKb(page, 'Two folders');
  await addFolderAndIndex(page, served.folder);
  await addFolderAndIndex(page, big);
  await showScreen(page, 'Pages');
  const tree = page.getByRole('navigation', { name: 'Pages' });
  const first = tree.getByRole('button', { name: path.basename(served.folder), exact: true, expanded: true });
  const second = tree.getByRole('button', { name: path.basename(big), exact: true, expanded: true });
  await expect(first).toBeVisible();
  await expect(second).toBeVisible({ timeout: 45_000 });
  await expect(first).toHaveAttribute('title', served.folder);
  // The first folder's own pages show without scrolling past the 300 archived notes.
  await expect(tree.getByRole('button', { name: /会议记录/ })).toBeInViewport();
  const gateway = tree.getByRole('button', { name: /API Gateway/ });
  await expect(gateway.locator('.tree-label')).toHaveText('API Gateway');
  await expect(gateway.locator('.tree-sub')).toHaveText('gateway.md');
  const names = await tree.getByRole('button', { name: /^Archived note/ }).evaluateAll((els) =>
    els.slice(0, 4).map((el) => el.querySelector('.tree-label')?.textContent),
  );
  expect(names).toEqual(['Archived note 1', 'Archived note 2', 'Archived note 3', 'Archived note 4']);
  await second.click();
  await expect(tree.getByRole('button', { name: /^Archived note/ })).toHaveCount(0);
  await snap(page, testInfo, 'pages-05-tree');
});
