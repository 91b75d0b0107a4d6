/**
 * Page digests in the UI against the real core and the scripted Ollama: the switch in the knowledge base's
 * title bar starts a run, its outcome shows beside it, and the digests appear in the page tree under their
 * own root and in the page view, both marked as generated. The setting survives a reload; off removes them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { addFolderAndIndex, createKb, showScreen, snap } from './helpers';

const TITLE = 'page digests switched on: written, marked generated in the tree and on the page';

test(TITLE, async ({ page, served }, info) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-digests-'));
  fs.writeFileSync(path.join(dir, 'alpha.md'), '# Alpha\n\nThe gateway retries a failed call three times.\n');
  fs.writeFileSync(path.join(dir, 'beta.md'), '# Beta\n\nTomato soup simmers for twenty minutes.\n');
  try {
    served.ollama.onChat((body: { messages: { content: string }[] }) => {
      const user = body.messages.at(-1)!.content;
      const source = /<page path="([^"]+)"/.exec(user)?.[1];
      if (!source) return { chunks: [{ content: '- Notes on a gateway and a soup [1][2].' }] };
      return { chunks: [{ content: `- The key point of ${source} [1].\n- A second point [1].` }] };
    });
    await page.goto(served.url);
    await createKb(page, 'Digested');
    await addFolderAndIndex(page, dir);
    const toggle = page.getByRole('switch', { name: 'Page digests' });
    await expect(toggle).not.toBeChecked();
    await toggle.check();
    await expect(page.getByRole('status').filter({ hasText: /^3 digests$/ })).toBeVisible({ timeout: 30_000 });

    await showScreen(page, 'Pages');
    const tree = page.getByRole('navigation', { name: 'Pages' });
    await expect(tree.getByRole('button', { name: /^Digests\s*Generated$/ })).toBeVisible();
    await tree.getByRole('button', { name: /Digest: Alpha/ }).click();
    const view = page.getByRole('article', { name: 'Page Digest: Alpha' });
    await expect(view.getByText(/^Generated Written by qwen3:4b from wiki\/alpha\.md\./)).toBeVisible();
    await expect(view.getByLabel('Page text')).toContainText('The key point of wiki/alpha.md [1]');
    await expect(tree.getByRole('button', { name: /^Alpha/ })).not.toContainText('Generated');
    await snap(page, info, 'digests-01-generated-page');

    await page.reload();
    await expect(page.getByRole('switch', { name: 'Page digests' })).toBeChecked();
    await showScreen(page, 'Pages');
    await expect(tree.getByRole('button', { name: /^Digests\s*Generated$/ })).toBeVisible();

    // Off removes them: stale digests would soon say what the pages no longer say.
    await page.getByRole('switch', { name: 'Page digests' }).uncheck();
    await expect(tree.getByRole('button', { name: /^Digests\s*Generated$/ })).toHaveCount(0);
    await expect(tree.getByRole('button', { name: /^Alpha/ })).toBeVisible();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a digest run shows its progress and stops from its button', async ({ page, served }, info) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-digests-'));
  fs.writeFileSync(path.join(dir, 'alpha.md'), '# Alpha\n\nThe gateway retries a failed call three times.\n');
  fs.writeFileSync(path.join(dir, 'beta.md'), '# Beta\n\nTomato soup simmers for twenty minutes.\n');
  try {
    // A slow model: each digest takes about 6 s.
    const chunks = Array.from({ length: 60 }, () => ({ content: '- A point [1].\n' }));
    served.ollama.onChat(() => ({ chunks, delayMs: 100 }));
    await page.goto(served.url);
    await createKb(page, 'Slow');
    await addFolderAndIndex(page, dir);
    await page.getByRole('switch', { name: 'Page digests' }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Writing digests: 0 of 2 pages' })).toBeVisible();
    await snap(page, info, 'digests-02-running');
    await page.getByRole('button', { name: 'Stop digests' }).click();
    const stopped = page.getByRole('status').filter({ hasText: 'Digests stopped; those made so far are kept' });
    await expect(stopped).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop digests' })).toHaveCount(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
