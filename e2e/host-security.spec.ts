/**
 * The browser host against pages of another origin on the same machine: a second HTTP server on
 * another 127.0.0.1 port (to the browser "same-site", since cookies and sites ignore ports) serves
 * attack pages in the same browser profile as an open Sift tab. None of them may obtain the token or
 * change anything; the core's state is then read back through the real API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFolderAndIndex, ask, invokeCore, lastAnswer, showScreen, waitTurnEnded } from './helpers';
import { tokens } from './replies';

/** One request the attack server saw: its target and every header (a leaked token would show here). */
interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** The attack server: each page is an inline script against `sift` (inline is fine on this origin). */
async function startAttacker(sift: string): Promise<{ origin: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const page = (script: string, body = '') =>
    `<!doctype html><title>attack</title><body>${body}<pre id="out"></pre><script>
      const SIFT = ${JSON.stringify(sift)};
      const report = (s) => { document.getElementById('out').textContent += s + '\\n'; };
      (async () => { ${script} ; report('done'); })().catch((e) => report('error ' + e));
    </script></body>`;
  const invoke = (op: string, args: unknown) => JSON.stringify(JSON.stringify({ op, args }));
  const pages: Record<string, string> = {
    '/form': page(
      `document.forms[0].submit()`,
      // text/plain form: the name and value join into a JSON-looking body `{"op":…,"pad":"="}`.
      `<form method="POST" enctype="text/plain" action="${sift}/api/invoke">
         <input name='{"op":"kb.create","args":{"name":"Evil form"},"pad":"' value='"}'></form>`,
    ),
    '/no-cors': page(`
      for (const [op, args] of [
        ['kb.create', { name: 'Evil no-cors' }],
        ['kb.delete', { kb: 'Mine' }],
        ['settings.set', { patch: { ollamaHost: 'http://127.0.0.1:9/' } }],
      ]) {
        const body = JSON.stringify({ op, args });
        await fetch(SIFT + '/api/invoke', { method: 'POST', mode: 'no-cors', credentials: 'include', body });
        await fetch(SIFT + '/api/invoke', { method: 'POST', mode: 'no-cors', credentials: 'include', body,
          headers: { 'content-type': 'text/plain' } });
      }
      report('sent');`),
    '/credentials': page(`
      const tries = [
        () => fetch(SIFT + '/api/invoke', { method: 'POST', credentials: 'include',
          headers: { 'content-type': 'application/json' }, body: ${invoke('kb.delete', { kb: 'Mine' })} }),
        () => fetch(SIFT + '/api/invoke?token=guess', { method: 'POST', credentials: 'include',
          body: ${invoke('kb.list', {})} }),
        () => fetch(SIFT + '/api/events', { credentials: 'include' }).then((r) => r.text()),
        () => fetch(SIFT + '/', { credentials: 'include' }).then((r) => r.text()),
      ];
      for (const t of tries) {
        try { report('read ' + JSON.stringify(await t())); } catch { report('refused'); }
      }`),
    '/embeds': page(
      `await new Promise((r) => setTimeout(r, 1500)); report('cookie=' + document.cookie)`,
      `<img src="${sift}/api/events"><script src="${sift}/api/events"></script>
       <img src="${sift}/"><iframe src="${sift}/"></iframe>`,
    ),
    '/leak': page(`report('referrer=' + document.referrer + ' cookie=' + document.cookie)`),
  };
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const html = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Open an attack page in the Sift tab's browser context and wait until its script reports `done`. */
async function attack(page: Page, url: string): Promise<string> {
  const tab = await page.context().newPage();
  await tab.goto(url);
  await expect(tab.locator('#out')).toContainText('done', { timeout: 15_000 });
  const out = (await tab.locator('#out').textContent()) ?? '';
  await tab.close();
  return out;
}

test('pages on another 127.0.0.1 port can neither obtain the token nor change anything', async ({ page, served }) => {
  const token = new URL(served.url).searchParams.get('token')!;
  const sift = new URL(served.url).origin;
  const attacker = await startAttacker(sift);
  try {
    await page.goto(served.url);
    await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
    // The token left the address bar; a reload in the same tab still works.
    expect(page.url()).toBe(`${sift}/`);
    await invokeCore(served.url, 'kb.create', { name: 'Mine' });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Mine' })).toBeVisible();
    const before = await invokeCore(served.url, 'settings.get');

    // The form navigates its tab to Sift's answer: a refusal, not a knowledge base.
    const form = await page.context().newPage();
    const answer = form.waitForResponse((r) => r.url() === `${sift}/api/invoke`);
    await form.goto(`${attacker.origin}/form`);
    expect((await answer).status()).toBeGreaterThanOrEqual(400);
    await form.close();
    await attack(page, `${attacker.origin}/no-cors`);
    const credentials = await attack(page, `${attacker.origin}/credentials`);
    expect(credentials).not.toContain(token);
    expect(credentials).not.toContain('read {"ok":true');
    const embeds = await attack(page, `${attacker.origin}/embeds`);
    expect(embeds).toContain('cookie=\n');

    const kbs = await invokeCore<{ name: string }[]>(served.url, 'kb.list');
    expect(kbs.map((kb) => kb.name)).toEqual(['Mine']);
    expect(await invokeCore(served.url, 'settings.get')).toEqual(before);
    for (const request of attacker.seen) expect(JSON.stringify(request)).not.toContain(token);
    // The Sift tab still works after all that.
    await expect(page.getByRole('heading', { level: 1, name: 'Mine' })).toBeVisible();
  } finally {
    await attacker.close();
  }
});

test('a link in an answer opens in a new tab with no Referer and no way back to Sift', async ({ page, served }) => {
  const token = new URL(served.url).searchParams.get('token')!;
  const attacker = await startAttacker(new URL(served.url).origin);
  try {
    await page.goto(served.url);
    await invokeCore(served.url, 'kb.create', { name: 'Kitchen' });
    await page.reload();
    await addFolderAndIndex(page, served.kitchenFolder);
    await showScreen(page, 'Chat');
    served.ollama.onChat({ chunks: tokens(`See [the notes](${attacker.origin}/leak) for more.`), delayMs: 5 });
    await ask(page, 'What should I cook?');
    await waitTurnEnded(page);
    const link = lastAnswer(page).getByRole('link', { name: 'the notes' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noreferrer/);
    const opened = page.context().waitForEvent('page');
    await link.click();
    const tab = await opened;
    await expect(tab.locator('#out')).toContainText('done');
    expect(await tab.locator('#out').textContent()).toContain('referrer= cookie=\n');
    expect(await tab.evaluate(() => (globalThis as { opener?: unknown }).opener ?? null)).toBeNull();
    const leak = attacker.seen.find((s) => s.url === '/leak');
    expect(leak?.headers.referer).toBeUndefined();
    for (const request of attacker.seen) expect(JSON.stringify(request)).not.toContain(token);
  } finally {
    await attacker.close();
  }
});
