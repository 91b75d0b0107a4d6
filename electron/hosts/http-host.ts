/**
 * The loopback HTTP + Server-Sent-Events host, for browser mode and end-to-end tests.
 *
 * - Binds 127.0.0.1 only, and refuses requests whose Host header is not that address or
 *   `localhost` (so a web page elsewhere cannot reach it through DNS rebinding).
 * - Every request must carry the random per-start token: `Authorization: Bearer <token>`, or the
 *   `sift_token` cookie that opening `/?token=<token>` sets (SameSite=Strict, HttpOnly).
 * - `POST /api/invoke {op, args}` → the core's Result; `GET /api/events` → one SSE stream of every
 *   event; anything else is a file of the built renderer (SPA fallback to index.html).
 * It holds no logic of its own: validation and errors come from `sift.invoke`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Sift } from '../core';
import { fail, type Result } from '../../shared/errors';
import { CONTENT_SECURITY_POLICY } from './csp';

/** Options of {@link startHttpHost}. */
export interface HttpHostOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /** Folder of the built renderer to serve; omit for an API-only host. */
  staticDir?: string;
  /** Use this token instead of a random one (tests only). */
  token?: string;
  /** Largest accepted request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** A running host. */
export interface HttpHost {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The URL a person opens: origin plus `/?token=…`. */
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Start the host on 127.0.0.1 and resolve once it listens. */
export async function startHttpHost(sift: Sift, options: HttpHostOptions = {}): Promise<HttpHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const maxBody = options.maxBodyBytes ?? 1 << 20;
  const streams = new Set<http.ServerResponse>();
  const stopEvents = sift.onEvent((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of streams) res.write(frame);
  });

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('[sift] http host:', err);
      if (!res.headersSent) sendJson(res, 500, fail('internal', 'the host failed to answer'));
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!hostAllowed(req.headers.host, port)) return sendJson(res, 403, fail('unauthorized', 'requests must be addressed to 127.0.0.1'));
    const queryToken = url.searchParams.get('token');
    const authorised = sameToken(presentedToken(req) ?? queryToken, token);
    if (!authorised) return sendJson(res, 401, fail('unauthorized', 'this request lacks the Sift host token; open the URL Sift printed'));
    if (url.pathname === '/api/invoke' && req.method === 'POST') return invoke(req, res);
    if (url.pathname === '/api/events' && req.method === 'GET') return openStream(req, res);
    if (url.pathname.startsWith('/api/')) return sendJson(res, 404, fail('unknown_operation', `no such endpoint ${req.method} ${url.pathname}`));
    if (queryToken) res.setHeader('set-cookie', `sift_token=${token}; Path=/; HttpOnly; SameSite=Strict`);
    return serveStatic(url.pathname, res);
  }

  async function invoke(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req, maxBody);
    if (body === null) return sendJson(res, 413, fail('invalid_argument', `request body exceeds ${maxBody} bytes`));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return sendJson(res, 400, fail('invalid_argument', 'request body is not JSON'));
    }
    if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { op?: unknown }).op !== 'string') {
      return sendJson(res, 400, fail('invalid_argument', 'request body must be {"op": "domain.verb", "args": {...}}'));
    }
    const { op, args } = parsed as { op: string; args?: unknown };
    const result = await sift.invoke(op, args);
    sendJson(res, result.ok ? 200 : statusOf(result), result);
  }

  function openStream(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    const keepAlive = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      clearInterval(keepAlive);
      streams.delete(res);
    });
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    if (!options.staticDir) return sendJson(res, 404, fail('not_found', 'this host serves the API only'));
    const root = path.resolve(options.staticDir);
    const wanted = path.resolve(root, '.' + decodeURIComponent(pathname));
    const inside = wanted === root || wanted.startsWith(root + path.sep);
    const file = inside && isFile(wanted) ? wanted : path.join(root, 'index.html');
    if (!isFile(file)) return sendJson(res, 404, fail('not_found', `the renderer is not built in ${root}; run npm run build:renderer`));
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    url: `${origin}/?token=${token}`,
    token,
    port,
    async close() {
      stopEvents();
      for (const res of streams) res.end();
      streams.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

function presentedToken(req: http.IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  const cookie = req.headers.cookie?.split(';').map((c) => c.trim()).find((c) => c.startsWith('sift_token='));
  return cookie ? cookie.slice('sift_token='.length) : null;
}

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function statusOf(result: Result<unknown>): number {
  if (result.ok) return 200;
  switch (result.error.code) {
    case 'invalid_argument':
      return 400;
    case 'not_found':
    case 'unknown_operation':
      return 404;
    case 'already_exists':
    case 'conflict':
    case 'database_newer':
      return 409;
    case 'unauthorized':
      return 401;
    default:
      return 500;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
