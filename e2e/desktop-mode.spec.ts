/**
 * The renderer's desktop path (`window.sift` present) in Chromium, for machines without an
 * Electron binary: a stand-in for the preload bridge — one `invoke` and one `subscribe`, exactly
 * the preload's shape — carries the real contract to the real core over the loopback host, and
 * answers `app.pickFolder` as the OS dialog would, with the folders queued by the test. It checks
 * what only the desktop UI does: picker buttons, and exports always saved into a folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ask, createKb, lastAnswer, showScreen, waitIndexed, waitTurnEnded } from './helpers';
import { citingReply } from './replies';

/** Install the stand-in bridge before the app's scripts run; `picks` are the folders the "OS dialog" returns, in order. */
async function installBridge(page: Page, picks: string[]): Promise<void> {
  await page.addInitScript(`(() => {
    const picks = ${JSON.stringify(picks)};
    // The bridge authorises itself as the app's own script does: the token in a header, never a cookie.
    const headers = { authorization: 'Bearer ' + new URLSearchParams(location.search).get('token') };
    const listeners = new Map();
    let streaming = false;
    async function stream() {
      const res = await fetch('/api/events', { headers });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\\n\\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) for (const fn of listeners.get(event) ?? []) fn(JSON.parse(data));
        }
      }
    }
    window.sift = {
      async invoke(op, args) {
        if (op === 'app.pickFolder') return { ok: true, value: { supported: true, path: picks.shift() ?? null } };
        const res = await fetch('/api/invoke', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ op, args }) });
        return res.json();
      },
      subscribe(event, listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event).add(listener);
        if (!streaming) void stream();
        streaming = true;
        return () => listeners.get(event).delete(listener);
      },
    };
  })()`);
}

test('desktop renderer: folders and export folders come from the picker; exports are saved, never downloaded', async ({ page, served }) => {
  const exports = path.join(path.dirname(served.folder), 'exports');
  fs.mkdirSync(exports);
  await installBridge(page, [served.folder, exports]);
  await page.goto(served.url);
  await createKb(page, 'Library');

  await showScreen(page, 'Folders & indexing');
  await page.getByRole('button', { name: 'Choose…' }).click();
  await expect(page.getByRole('list', { name: 'Folders of this knowledge base' })).toContainText(served.folder);
  await waitIndexed(page);

  await showScreen(page, 'Chat');
  served.ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  await lastAnswer(page).getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  // No download in the app: no "where to" choice, a folder field with the picker.
  await expect(dialog.getByRole('radio', { name: /^Download/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Choose…' }).click();
  await expect(dialog.getByLabel('Folder', { exact: true })).toHaveValue(exports);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Saved to ${exports}${path.sep}`);
  const saved = fs.readdirSync(exports);
  expect(saved).toEqual([expect.stringMatching(/\.md$/)]);
  expect(fs.readFileSync(path.join(exports, saved[0]!), 'utf8')).toMatch(/^\[\^1\]: “.+”$/m);
  // A second picker call gets nothing (the person cancelled): the typed folder stays.
  await dialog.getByRole('button', { name: 'Choose…' }).click();
  await expect(dialog.getByLabel('Folder', { exact: true })).toHaveValue(exports);
});
