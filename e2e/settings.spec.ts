/**
 * Settings against the real core: its validation messages next to the fields, the Ollama
 * connection test and model list, per-folder exclusions, and changing the embedding model (asked
 * first, then every knowledge base re-embedded with progress shown).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { writeTestModel } from '../electron/core/embed/testing/test-model';
import type { Folder } from '../shared/models';
import type { Settings } from '../shared/settings';
import { expect, test } from './fixtures';
import { addFolderAndIndex, closeSettings, createKb, invokeCore, openSettings, showScreen, snap, waitIndexed } from './helpers';
import { startSift } from './sift-process';

test('the core refuses a bad host and a negative search budget with clear messages next to the fields', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  const dialog = await openSettings(page);

  const host = dialog.getByLabel('Ollama address');
  await expect(host).toHaveValue(served.ollama.url);
  await host.fill('ftp://x');
  await host.press('Enter');
  await expect(host).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('#setting-host-note')).toHaveText('settings.set: patch.ollamaHost: must be an http(s) URL such as http://127.0.0.1:11434');
  // "Test connection" saves first; a refused address stops the test there.
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.locator('.connection-result')).toHaveCount(0);

  const budget = dialog.getByLabel('Searches per question');
  await expect(budget).toHaveValue('3');
  await budget.fill('-1');
  await budget.press('Tab');
  await expect(budget).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('#setting-search-budget-note')).toHaveText('settings.set: patch.searchBudget: must be at least 1');
  await snap(page, testInfo, '70-settings-errors');
  // Nothing refused was stored.
  let stored = await invokeCore<Settings>(served.url, 'settings.get');
  expect(stored.ollamaHost).toBe(served.ollama.url);
  expect(stored.searchBudget).toBe(3);

  // Corrected values save and the errors go.
  await budget.fill('5');
  await budget.press('Enter');
  await expect(budget).not.toHaveAttribute('aria-invalid');
  await expect(dialog.locator('#setting-search-budget-note')).toHaveText(/default 3/);
  await host.fill(served.ollama.url);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  const result = dialog.getByRole('status').filter({ hasText: 'Connected to Ollama' });
  await expect(result).toContainText(`at ${served.ollama.url}`);
  await expect(result).toContainText('1 model installed: qwen3:4b');
  await expect(host).not.toHaveAttribute('aria-invalid');
  stored = await invokeCore<Settings>(served.url, 'settings.get');
  expect(stored.searchBudget).toBe(5);

  // The model list is the server's, plus "first installed".
  const model = dialog.getByLabel('Chat model');
  await expect(model.locator('option')).toHaveText(['First installed', 'qwen3:4b']);
  await model.selectOption('qwen3:4b');
  await dialog.getByLabel('Reasoning').selectOption({ label: 'Off' });
  await expect.poll(async () => (await invokeCore<Settings>(served.url, 'settings.get')).think).toBe(false);
  expect((await invokeCore<Settings>(served.url, 'settings.get')).model).toBe('qwen3:4b');

  // A server that does not answer: the core's message, and the banner appears at once.
  await host.fill('http://127.0.0.1:9');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.locator('.connection-result.down')).toContainText('Ollama is not reachable at http://127.0.0.1:9');
  await snap(page, testInfo, '71-settings-unreachable');
  await closeSettings(page);
  await expect(page.getByRole('region', { name: 'Ollama is not reachable' })).toContainText('http://127.0.0.1:9');
});

test('per-folder exclusions: edited on the folder panel, saved through the core, applied by a re-index', async ({ page, served }, testInfo) => {
  await page.goto(served.url);
  await createKb(page, 'Library');
  await addFolderAndIndex(page, served.folder);
  await expect(page.getByLabel('Indexing status')).toContainText('5 pages · 1 failed');

  const folders = page.getByRole('list', { name: 'Folders of this knowledge base' });
  await folders.getByRole('button', { name: 'Exclusions' }).click();
  const editor = page.getByLabel(`Exclusions for ${served.folder}`);
  await editor.fill('papers/\n\n# drafts are not ready\n*.log\npapers/');
  await snap(page, testInfo, '72-exclusions-editor');
  await page.getByRole('button', { name: 'Save exclusions' }).click();
  await expect(folders.getByRole('button', { name: 'Exclusions (2)' })).toBeVisible();
  const [folder] = await invokeCore<Folder[]>(served.url, 'folder.list', { kb: 'Library' });
  expect(folder!.excludeGlobs).toEqual(['papers/', '*.log']);
  // The PDF, the DOCX and the broken PDF under papers/ leave the index.
  await expect(page.getByLabel('Indexing status')).toHaveText('3 pages', { timeout: 30_000 });
  await waitIndexed(page);
  await showScreen(page, 'Pages');
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /Quarterly Report/ })).toHaveCount(0);
});

test('changing the embedding model asks first; cancel keeps it, confirm re-embeds every knowledge base with progress', async ({ page, served, modelDir }, testInfo) => {
  // The embedding comes from the settings here, not from SIFT_MODEL_DIR / SIFT_EMBED_MODEL (which would override them).
  await writeTestModel(modelDir, { modelId: 'sift-test/other', dimension: 32 });
  const sift = await startSift({ ollamaUrl: served.ollama.url });
  try {
    await page.goto(sift.url);
    let dialog = await openSettings(page);
    await expect(dialog.getByLabel('Provider')).toHaveValue('transformers');
    await dialog.getByLabel('Model id').fill('sift-test/tiny-embedder');
    await dialog.getByLabel('Local model folder').fill(modelDir);
    await dialog.getByRole('button', { name: 'Change embedding model' }).click();
    let confirm = page.getByRole('dialog', { name: 'Re-embed every knowledge base?' });
    await expect(confirm).toContainText('re-embedded with sift-test/tiny-embedder in the background');
    await confirm.getByRole('button', { name: 'Re-embed' }).click();
    await expect.poll(async () => (await invokeCore<Settings>(sift.url, 'settings.get')).embedding).toEqual({
      provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: modelDir, ollamaModel: null,
    });
    await closeSettings(page);

    await createKb(page, 'Library');
    // Enough text that re-embedding takes a moment (with the fixture folder alone it can finish between two frames).
    await addFolderAndIndex(page, writeNotes(path.join(path.dirname(served.folder), 'many-notes'), 150));
    const panel = page.getByRole('region', { name: 'Indexing' });
    await expect(panel).toContainText(/Embedding model \S*sift-test\/tiny-embedder/);
    // Figures by their label: the panel shows more of them than it used to, in an order that may change.
    const figure = (label: string) =>
      panel.locator('.count').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
    const chunks = await figure('Chunks').textContent();
    await expect(figure('With vectors')).toHaveText(`${chunks} / ${chunks}`);

    // Cancel: nothing changes, the field shows the model in use again.
    dialog = await openSettings(page);
    await dialog.getByLabel('Model id').fill('sift-test/other');
    await dialog.getByRole('button', { name: 'Change embedding model' }).click();
    confirm = page.getByRole('dialog', { name: 'Re-embed every knowledge base?' });
    await expect(confirm).toContainText('re-embedded with sift-test/other');
    await snap(page, testInfo, '73-reembed-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByLabel('Model id')).toHaveValue('sift-test/tiny-embedder');
    expect((await invokeCore<Settings>(sift.url, 'settings.get')).embedding.modelId).toBe('sift-test/tiny-embedder');

    // Confirm: the re-embedding shows its progress, from "computing vectors" to up to date with the new model.
    await dialog.getByLabel('Model id').fill('sift-test/other');
    await dialog.getByRole('button', { name: 'Change embedding model' }).click();
    await recordTexts(page, '.reembed');
    await page.getByRole('dialog', { name: 'Re-embed every knowledge base?' }).getByRole('button', { name: 'Re-embed' }).click();
    const progress = dialog.getByRole('region', { name: 'Re-embedding' });
    await expect(progress).toContainText('Library');
    await expect(progress).toContainText(`Up to date · vectors ${chunks}/${chunks}`, { timeout: 30_000 });
    await expect(progress).toContainText('sift-test/other');
    await snap(page, testInfo, '74-reembedded');
    expect((await recordedTexts(page)).some((t) => t.includes('Computing vectors…'))).toBe(true);
    await closeSettings(page);
    await showScreen(page, 'Folders & indexing');
    await expect(panel).toContainText(/Embedding model \S*sift-test\/other/);
    await expect(figure('With vectors')).toHaveText(`${chunks} / ${chunks}`);
  } finally {
    await sift.stop();
  }
});

/** Write `count` Markdown notes of a few paragraphs each into `dir`; returns `dir`. */
function writeNotes(dir: string, count: number): string {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const paragraphs = Array.from({ length: 4 }, (_, p) => `## Part ${p}\n\n${`Note ${i} on the gateway, its timeouts and 部署 steps, part ${p}. `.repeat(12)}`);
    fs.writeFileSync(path.join(dir, `note-${i}.md`), `# Note ${i}\n\n${paragraphs.join('\n\n')}\n`);
  }
  return dir;
}

/**
 * Start recording every text the element matching `selector` shows, as the DOM changes (a
 * progress that passes quickly is still seen). Runs in the page; written as a script because
 * this e2e code is compiled without DOM types.
 */
async function recordTexts(page: Page, selector: string): Promise<void> {
  await page.evaluate(`(() => {
    const seen = (window.__siftTexts = []);
    new MutationObserver(() => {
      const text = document.querySelector(${JSON.stringify(selector)})?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
}

/** The texts recorded since {@link recordTexts}. */
function recordedTexts(page: Page): Promise<string[]> {
  return page.evaluate('window.__siftTexts') as Promise<string[]>;
}
