/**
 * The loopback host against requests that are not Sift's own page: no cookie, no token in a URL for
 * the API, no other origin, no form bodies; and bad requests get clear 4xx answers, never a reset or
 * a 500. Real host on a real port, real core on a temp folder.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSift } from '../core';
import { tempDir } from '../core/testing/temp';
import { startHttpHost, type HttpHost } from './http-host';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function boot(staticDir?: string): Promise<HttpHost> {
  const sift = createSift({ dataDir: tempDir() });
  const host = await startHttpHost(sift, { staticDir });
  cleanup.push(() => sift.close(), () => host.close());
  return host;
}

interface RawInit {
  method?: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One raw request (node:http, so any header can be set or left out). */
function raw(host: HttpHost, target: string, init: RawInit = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { method = 'GET', headers } = init;
    const options = { host: '127.0.0.1', port: host.port, path: target, method, headers };
    const req = http.request(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function invokeBody(op: string, args: unknown = {}): string {
  return JSON.stringify({ op, args });
}

/** POST one operation to /api/invoke with exactly `headers`. */
function post(host: HttpHost, op: string, args: unknown, headers: http.OutgoingHttpHeaders, target = '/api/invoke') {
  return raw(host, target, { method: 'POST', headers, body: invokeBody(op, args) });
}

/** The token header and a JSON content type, as Sift's own page sends them. */
function own(host: HttpHost): http.OutgoingHttpHeaders {
  return { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
}

async function kbNames(host: HttpHost): Promise<string[]> {
  const res = await post(host, 'kb.list', {}, own(host));
  return (JSON.parse(res.body) as { value: { name: string }[] }).value.map((kb) => kb.name);
}

describe('the token travels only in a header', () => {
  it('refuses the token as a cookie, and in the query of an API call', async () => {
    const host = await boot();
    const json = { 'content-type': 'application/json' };
    const cookie = `sift_token=${host.token}`;
    expect((await post(host, 'kb.create', { name: 'Cookie' }, { ...json, cookie })).status).toBe(401);
    const byQuery = await post(host, 'kb.create', { name: 'Query' }, json, `/api/invoke?token=${host.token}`);
    expect(byQuery.status).toBe(401);
    expect((await raw(host, `/api/events?token=${host.token}`)).status).toBe(401);
    expect((await raw(host, '/api/events', { headers: { cookie } })).status).toBe(401);
    expect(await kbNames(host)).toEqual([]);
  });

  it('sets no cookie on the start URL, and tells browsers to send no Referer', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Sift</title><div id="root"></div>');
    const host = await boot(dir);
    const start = await raw(host, `/?token=${host.token}`, { headers: { accept: 'text/html' } });
    expect(start.status).toBe(200);
    expect(start.headers['set-cookie']).toBeUndefined();
    expect(start.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('requests from another origin change nothing', () => {
  it('refuses a form-style text/plain body, even with the token', async () => {
    const host = await boot();
    const res = await post(host, 'kb.create', { name: 'Form' }, { ...own(host), 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await kbNames(host)).toEqual([]);
  });

  it.each([
    ['an Origin of another port', { origin: 'http://127.0.0.1:1' }],
    ['an Origin of another host name', { origin: 'http://evil.example' }],
    ['a same-site (another port) fetch', { 'sec-fetch-site': 'same-site' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s, even with the token', async (_name, headers) => {
    const host = await boot();
    const res = await post(host, 'kb.create', { name: 'X' }, { ...own(host), ...headers });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await raw(host, '/api/events', { headers: { ...own(host), ...headers } })).status).toBe(403);
    expect(await kbNames(host)).toEqual([]);
  });

  it("accepts Sift's own origin", async () => {
    const host = await boot();
    const headers = { ...own(host), origin: host.origin, 'sec-fetch-site': 'same-origin' };
    const res = await post(host, 'kb.create', { name: 'Own' }, headers);
    expect(res.status).toBe(200);
    expect(await kbNames(host)).toEqual(['Own']);
  });
});

describe('a browser without the token', () => {
  it('gets a page saying how to open Sift, in English and Chinese; an API client gets JSON', async () => {
    const dir = tempDir();
    const script = '<script type="module" src="/app.js"></script>';
    const index = `<!doctype html><title>Sift</title><div id="root"></div>${script}`;
    fs.writeFileSync(path.join(dir, 'index.html'), index);
    fs.writeFileSync(path.join(dir, 'app.js'), 'export {};');
    const host = await boot(dir);
    const page = await raw(host, '/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(401);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('Open Sift with the link it printed');
    expect(page.body).toContain('请用 Sift 打印的链接打开');
    expect(page.body).toContain('/?token=');
    expect(page.body).not.toContain(host.token);
    // The app's page around the note, so a reloaded tab that holds the token starts the app.
    expect(page.body).toContain(script);
    // The app's own files hold no secret; anyone may load them.
    expect((await raw(host, '/app.js')).status).toBe(200);
    const api = await post(host, 'kb.list', {}, { accept: 'application/json', 'content-type': 'application/json' });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('gets the note as a page of its own from an API-only host', async () => {
    const host = await boot();
    const page = await raw(host, '/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(401);
    expect(page.body).toMatch(/^<!doctype html>/);
    expect(page.body).toContain('Open Sift with the link it printed');
  });
});

describe('bad requests get 4xx answers with a code', () => {
  it('answers a body over the limit with 413, not a reset connection', async () => {
    const host = await boot();
    const big = JSON.stringify({ op: 'kb.create', args: { name: 'x'.repeat(2 << 20) } });
    const res = await fetch(`${host.origin}/api/invoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    const error = { code: 'invalid_argument', message: 'request body exceeds 1048576 bytes' };
    expect(await res.json()).toEqual({ ok: false, error });
    expect(await kbNames(host)).toEqual([]);
  });

  const badPaths = ['/%E0%A4%A', '/api/%E0%A4%A', '/assets/%ZZ.js'];
  it.each(badPaths)('answers the bad path %s with 400 and no stack', async (target) => {
    const host = await boot(tempDir());
    const res = await raw(host, target, { headers: { authorization: `Bearer ${host.token}` } });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(res.body).not.toMatch(/\bat .+:\d+:\d+|URIError/);
  });

  it('refuses search.query with too many refs at once, with a clear message', async () => {
    const host = await boot();
    await post(host, 'kb.create', { name: 'Notes' }, own(host));
    const refs = Array.from({ length: 50_000 }, (_, i) => `wiki/p${i}.md`);
    const search = (list: string[]) => post(host, 'search.query', { kb: 'Notes', query: 'x', refs: list }, own(host));
    const t0 = performance.now();
    const res = await search(refs);
    expect(res.status).toBe(400);
    const tooMany = { code: 'invalid_argument', message: expect.stringContaining('at most 100 page references') };
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: tooMany });
    expect(performance.now() - t0).toBeLessThan(5000);
    const tooLong = await search(['wiki/' + 'a'.repeat(2000)]);
    const long = expect.stringContaining('longer than 1,000');
    expect(JSON.parse(tooLong.body)).toMatchObject({ error: { message: long } });
    const fine = await search(refs.slice(0, 100));
    expect(fine.status).toBe(200);
  });
});
