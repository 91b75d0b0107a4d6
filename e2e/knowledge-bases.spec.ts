/** Knowledge bases, folders, live indexing and browsing pages, against the real core. */
import fs from 'node:fs';
import path from 'node:path';
import { BROKEN_FILE } from './corpus';
import { expect, test } from './fixtures';
import { addFolderAndIndex, closeSettings, createKb, invokeCore, showScreen, snap } from './helpers';
import { startSift } from './sift-process';

test('a knowledge base indexes a folder live, lists the broken file as failed, and stays usable', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, '资料 Library');
  await expect(page.getByRole('heading', { name: 'No folders yet' })).toBeVisible();
  await snap(page, testInfo, '01-no-folders');

  await page.getByRole('button', { name: 'Add a folder' }).click();
  await expect(page.getByLabel('Add a folder')).toBeFocused();
  // The browser has no folder picker: the path field validates before asking the core.
  await expect(page.getByRole('button', { name: 'Choose…' })).toHaveCount(0);
  await page.getByLabel('Add a folder').fill('notes/relative');
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('alert')).toContainText('Type the full path');
  await page.getByLabel('Add a folder').fill(path.join(served.folder, 'no-such-folder'));
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('alert')).toContainText('does not exist');

  await addFolderAndIndex(page, served.folder);
  const failed = page.getByRole('list', { name: 'Files that failed' });
  await expect(failed.getByRole('listitem')).toHaveCount(1);
  await expect(failed).toContainText(BROKEN_FILE);
  await expect(page.getByRole('definition').filter({ hasText: /^5$/ }).first()).toBeVisible(); // 5 pages
  await expect(page.getByLabel('Indexing status')).toContainText('5 pages · 1 failed');
  await snap(page, testInfo, '02-indexed-with-failure');

  // Adding the same folder twice is refused with the core's reason.
  await page.getByLabel('Add a folder').fill(served.folder);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByRole('alert')).toContainText('already a folder');
});

test('pages: a tree of the wiki, headings in the text, a filter that understands Chinese', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await showScreen(page, 'Pages');
  const tree = page.getByRole('navigation', { name: 'Pages' });
  await expect(tree.getByRole('button', { name: 'notes', exact: true, expanded: true })).toBeVisible();
  for (const title of ['API Gateway', '部署指南', 'Quarterly Report', '会议记录']) await expect(tree.getByRole('button', { name: new RegExp(title) })).toBeVisible();
  await tree.getByRole('button', { name: 'notes', exact: true }).click();
  await expect(tree.getByRole('button', { name: /部署指南/ })).toHaveCount(0);
  await tree.getByRole('button', { name: 'notes', exact: true }).click();

  await tree.getByRole('button', { name: /部署指南/ }).click();
  const text = page.getByLabel('Page text');
  await expect(text.getByRole('heading', { name: '环境准备', exact: true })).toBeVisible();
  await expect(text).toContainText('部署前需要安装 Docker 和 Node.js 20。');
  await snap(page, testInfo, '03-page-with-headings');

  await page.getByLabel('Filter pages').fill('会议');
  await expect(tree.getByRole('button', { name: /会议记录/ })).toBeVisible();
  await expect(tree.getByRole('button', { name: /API Gateway/ })).toHaveCount(0);
  await tree.getByRole('button', { name: /会议记录/ }).click();
  await expect(page.getByLabel('Page text')).toContainText('热点数据缓存十分钟');
  await expect(page.getByText(/encoding gb/i)).toBeVisible();
  await page.getByLabel('Filter pages').fill('qrep');
  await expect(tree.getByRole('button', { name: /Quarterly Report/ })).toBeVisible();
  await snap(page, testInfo, '04-page-filter');
});

test('rename and delete a knowledge base (with confirmation); empty states', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
  await createKb(page, 'Drafts');
  await showScreen(page, 'Pages');
  await expect(page.getByRole('heading', { name: 'No folders yet' })).toBeVisible();

  await page.getByRole('button', { name: 'Rename knowledge base' }).click();
  await page.getByLabel('Knowledge base name').fill('草稿 Drafts');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '草稿 Drafts' })).toBeVisible();
  await expect(page.getByRole('button', { name: /草稿 Drafts/ })).toHaveAttribute('aria-current', 'true');

  await page.getByRole('button', { name: 'Delete knowledge base' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete “草稿 Drafts”?' });
  await expect(dialog).toBeVisible();
  await snap(page, testInfo, '05-delete-confirmation');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: '草稿 Drafts' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete knowledge base' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete knowledge base' }).click();
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
  expect(await served.cli('kb', 'list', '--json')).toBe('[]\n');
});

test('when the chosen embedding model cannot be had, the knowledge base says it searches by keywords only, and where to fix it', async ({ page, served }, testInfo) => {
  // A second host on the same machine, whose embedding model Ollama does not have. (A person who chose
  // no embedding model gets no banner: see banners-counters.spec.ts.)
  const keywordOnly = await startSift({ ollamaUrl: served.ollama.url, env: { SIFT_EMBEDDING: 'ollama:no-such-embedder' } });
  try {
    await page.goto(keywordOnly.url);
    await createKb(page, 'Keywords');
    await addFolderAndIndex(page, served.folder);
    const banner = page.getByRole('region', { name: 'Keyword-only search' });
    await expect(banner).toContainText('searches by keywords only');
    await expect(banner.locator('details')).toContainText('no-such-embedder');
    await banner.getByRole('button', { name: 'Embedding settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    await closeSettings(page);
    await snap(page, testInfo, '06-keyword-only');
  } finally {
    await keywordOnly.stop();
  }
});

test('keyboard only: create, switch screens with the arrow keys, focus is always visible', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await page.getByLabel('New knowledge base').focus();
  await page.keyboard.type('Keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Keyboard' })).toBeVisible();
  await page.getByRole('tab', { name: 'Chat' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Pages' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Pages' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Folders & indexing' })).toHaveAttribute('aria-selected', 'true');
  const outline = await page.getByRole('tab', { name: 'Folders & indexing' }).evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).outlineStyle);
  expect(outline).toBe('solid');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Add a folder')).toBeFocused();
  await snap(page, testInfo, '07-keyboard-focus');
  // Every button has an accessible name (icon buttons carry aria-labels).
  const unnamed = await page.getByRole('button').evaluateAll((buttons) => buttons.filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim())).length);
  expect(unnamed).toBe(0);
});

/** Notes in the big folder: with 600, reading them sometimes ended while the model still loaded (CI flake). */
const BIG_FOLDER_FILES = 1200;

test('the app stays usable while a big folder indexes', async ({ page, served }, testInfo) => {
  const big = path.join(path.dirname(served.folder), 'big');
  fs.mkdirSync(big);
  // Enough notes that reading them outlasts loading the embedding model, whose progress the status bar shows first.
  for (let i = 0; i < BIG_FOLDER_FILES; i++) {
    const body = `Notes about topic ${i} and the gateway. `.repeat(40) + '\n\n## 细节\n\n' + '关于网关和部署的更多内容。'.repeat(30);
    fs.writeFileSync(path.join(big, `note-${String(i).padStart(4, '0')}.md`), `# Note ${i}\n\n${body}\n`);
  }
  await page.goto(served.url);
  await createKb(page, 'Big');
  await showScreen(page, 'Folders & indexing');
  await page.getByLabel('Add a folder').fill(big);
  // Indexing 1,200 notes takes about two seconds, so record what the panel shows as it changes rather
  // than sampling one moment: the progress bar's values and the status bar's text.
  // (A script string: the e2e specs are compiled without the DOM's types.)
  await page.evaluate(`(() => {
    const seen = (window.seen = { progress: [], status: [] });
    const record = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Indexing progress"]');
      if (bar) seen.progress.push(Number(bar.getAttribute('aria-valuenow')));
      const status = document.querySelector('[aria-label="Indexing status"]')?.textContent;
      if (status) seen.status.push(status);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByText('Now reading')).toBeVisible();
  await snap(page, testInfo, '08-indexing-live');
  await expect(page.getByLabel('Indexing status')).toContainText(/Vectors/, { timeout: 30_000 });
  const seen = (await page.evaluate('window.seen')) as { progress: number[]; status: string[] };
  // The bar moved through the run (not only empty, then full), and the status bar counted files as
  // they were done.
  expect(seen.progress.some((value) => value > 0 && value < 100), `progress values seen: ${[...new Set(seen.progress)].join(', ')}`).toBe(true);
  const counted = seen.status.map((text) => Number(/Indexing (\d+)\/1,200 files/.exec(text)?.[1] ?? NaN));
  expect(counted.some((n) => n > 0 && n < BIG_FOLDER_FILES), `status seen: ${[...new Set(seen.status)].join(' | ')}`).toBe(true);

  await showScreen(page, 'Chat');
  await expect(page.getByRole('heading', { name: 'Still indexing' })).toBeVisible();
  await snap(page, testInfo, '09-chat-still-indexing');
  await showScreen(page, 'Pages');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /^Note 0\b/ }).click();
  await expect(page.getByLabel('Page text')).toContainText('Notes about topic 0');
  await expect(page.getByLabel('Indexing status')).toContainText(/Indexing|Vectors/);

  await showScreen(page, 'Folders & indexing');
  await expect(page.getByText('Up to date')).toBeVisible({ timeout: 50_000 });
  await expect(page.getByLabel('Indexing status')).toContainText('1,200 pages');
});

test('a name of only zero-width characters or with a bidi override is refused in the UI language, before it is sent (issue #27 item 3)', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  const before = await invokeCore<unknown[]>(served.url, 'kb.list');
  await page.getByLabel('New knowledge base').fill('\u200b\u200b\u200b');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The name has no visible character (only spaces or zero-width characters).');
  await snap(page, testInfo, '01-invisible-name-en');
  await page.getByLabel('New knowledge base').fill('report\u202Efdp.exe');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('bidirectional control character (such as U+202E)');
  expect(await invokeCore<unknown[]>(served.url, 'kb.list')).toEqual(before);

  await invokeCore(served.url, 'settings.set', { patch: { language: 'zh-CN' } });
  await page.reload();
  await page.getByLabel('新建知识库').fill('\u200d\ufeff');
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('名称中没有可见的字符（只有空格或零宽字符）。');
  await snap(page, testInfo, '02-invisible-name-zh');
  await page.getByLabel('新建知识库').fill('报告\u202Efdp.exe');
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('名称中含有双向文本控制字符（如 U+202E），会让名称看起来与实际不同。');
  await snap(page, testInfo, '03-bidi-name-zh');
  await invokeCore(served.url, 'settings.set', { patch: { language: 'en' } });
});
