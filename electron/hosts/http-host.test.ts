import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../shared/client';
import type { EventPayload } from '../../shared/contract';
import { createHttpTransport } from '../../shared/http-transport';
import { createSift, type Sift } from '../core';
import { tempDir } from '../core/testing/temp';
import { startHttpHost, type HttpHost } from './http-host';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function boot(staticDir?: string): Promise<{ sift: Sift; host: HttpHost }> {
  const sift = createSift({ dataDir: tempDir() });
  const host = await startHttpHost(sift, { staticDir });
  cleanup.push(() => sift.close(), () => host.close());
  return { sift, host };
}

function post(host: HttpHost, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${host.origin}/api/invoke`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Replace ids and timestamps so results of two separate cores can be compared. */
function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'id' || key === 'kbId' ? '<id>' : /At$/.test(key) ? '<time>' : v));
}

describe('loopback HTTP host', () => {
  it('gives the same results as calling the core directly', async () => {
    const direct = createSift({ dataDir: tempDir() });
    cleanup.push(() => direct.close());
    const { host } = await boot();
    const remote = createHttpTransport({ baseUrl: host.origin, token: host.token });
    const folder = fs.realpathSync(tempDir());
    const script: [string, unknown][] = [
      ['kb.create', { name: 'Notes' }],
      ['kb.create', { name: 'Notes' }],
      ['kb.rename', { kb: 'Notes', name: '笔记' }],
      ['folder.add', { kb: '笔记', path: folder }],
      ['folder.add', { kb: '笔记', path: folder }],
      ['folder.list', { kb: '笔记' }],
      ['kb.list', {}],
      ['kb.create', { name: '' }],
      ['folder.remove', { kb: '笔记', path: folder }],
      ['kb.delete', { kb: '笔记' }],
      ['kb.list', {}],
      ['no.such', {}],
    ];
    for (const [op, args] of script) {
      const a = await direct.invoke(op, args);
      const b = await remote.invoke(op, args);
      expect(normalise(b), op).toEqual(normalise(a));
    }
  });

  it('refuses requests without the token, or with a wrong one', async () => {
    const { host } = await boot();
    const none = await post(host, { op: 'kb.list', args: {} });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const wrong = await post(host, { op: 'kb.list', args: {} }, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${host.origin}/api/events`)).status).toBe(401);
    const right = await post(host, { op: 'kb.list', args: {} }, { authorization: `Bearer ${host.token}` });
    expect(await right.json()).toEqual({ ok: true, value: [] });
  });

  it('answers malformed arguments with invalid_argument', async () => {
    const { host } = await boot();
    const auth = { authorization: `Bearer ${host.token}` };
    for (const args of [{ name: 7 }, { name: '' }, null, 'Notes', { }]) {
      const res = await post(host, { op: 'kb.create', args }, auth);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    const notJson = await fetch(`${host.origin}/api/invoke`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{oops' });
    expect(await notJson.json()).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: 'request body is not JSON' } });
  });

  it('refuses a Host header other than the loopback address', async () => {
    const { host } = await boot();
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: host.port, path: '/api/invoke', method: 'POST', headers: { host: 'evil.example:80', authorization: `Bearer ${host.token}` } }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end('{"op":"kb.list","args":{}}');
    });
    expect(status).toBe(403);
  });

  it('streams events over SSE to a typed client', async () => {
    const { host } = await boot();
    const transport = createHttpTransport({ baseUrl: host.origin, token: host.token });
    cleanup.push(() => transport.close());
    const client = createClient(transport);
    const seen: EventPayload<'kb.changed'>[] = [];
    client.subscribe('kb.changed', (p) => seen.push(p));
    await new Promise((r) => setTimeout(r, 150)); // let the stream connect
    const kb = await client.call('kb.create', { name: 'Streamed' });
    await expect.poll(() => seen).toEqual([{ kbId: kb.id, change: 'created' }]);
  });

  it('serves the renderer with a CSP for the start URL, and sets no cookie', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Sift</title><div id="root"></div>');
    const { host } = await boot(dir);
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('set-cookie')).toBeNull();
    expect((await fetch(`${host.origin}/`)).status).toBe(401);
    const traversal = await fetch(`${host.origin}/..%2f..%2fetc%2fpasswd`, { headers: { accept: 'text/html' } });
    expect(traversal.status).toBe(401);
    expect(await traversal.text()).toContain('<title>Sift</title>');
  });

});
