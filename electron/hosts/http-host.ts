/**
 * The loopback HTTP + Server-Sent-Events host, for browser mode and end-to-end tests.
 *
 * - Binds 127.0.0.1 only, and refuses requests whose Host header is not that address or
 *   `localhost` (so a web page elsewhere cannot reach it through DNS rebinding).
 * - Every API request must carry the random per-start token as `Authorization: Bearer <token>`, and a
 *   browser request must come from Sift's own origin (see http-guards.ts). No cookie: cookies ignore
 *   ports, so one would reach every other server on 127.0.0.1 and ride along on their pages' requests.
 * - Opening `/?token=<token>` serves the app; its script keeps the token in the tab's sessionStorage
 *   and removes it from the address bar. Without the token a browser gets a page saying how to open
 *   Sift (401). The built renderer's other files hold no secret and are served to anyone.
 * - `POST /api/invoke {op, args}` (JSON only) → the core's Result; `GET /api/events` → one SSE stream
 *   of every event.
 * It holds no logic of its own: validation and errors come from `sift.invoke`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Sift } from '../core';
import { fail, SiftError, type Result } from '../../shared/errors';
import { CONTENT_SECURITY_POLICY } from './csp';
import {
  bearerToken,
  WWW_AUTHENTICATE,
  crossOriginReason,
  hostAllowed,
  isJsonBody,
  readBody,
  requestTarget,
  sameToken,
} from './http-guards';
import { lockedPageHtml } from './locked-page';
import { handleMcpHttp } from './mcp-host';

/** Options of {@link startHttpHost}. */
export interface HttpHostOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /** Folder of the built renderer to serve; omit for an API-only host. */
  staticDir?: string;
  /** Use this token instead of a random one (SIFT_HOST_TOKEN; at least MIN_TOKEN_LENGTH characters). */
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

const UNAUTHORISED = 'this request lacks the Sift host token; open the URL Sift printed';

/** Headers of every page and file served: no inline scripts, and no address sent on to other sites. */
const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Whether a browser navigates here (it asks for HTML); API clients get JSON errors instead. */
function acceptsHtml(req: http.IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

/** Shortest host token accepted: 24 characters of letters and digits are over 140 bits, past any guessing. */
export const MIN_TOKEN_LENGTH = 24;

/**
 * The token a host was given (SIFT_HOST_TOKEN), checked: long enough that no one can guess it, and made of
 * characters a URL carries as they are. Throws SiftError('invalid_argument') saying what to use instead.
 */
function checkedToken(token: string): string {
  const advice = 'use a random one, e.g. from `openssl rand -hex 16`, or leave SIFT_HOST_TOKEN unset for a fresh token';
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new SiftError('invalid_argument', `SIFT_HOST_TOKEN is ${token.length} character${token.length === 1 ? '' : 's'} long; it must have at least ${MIN_TOKEN_LENGTH} so that it cannot be guessed: ${advice}.`);
  }
  if (!/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new SiftError('invalid_argument', `SIFT_HOST_TOKEN may hold only letters, digits and . _ ~ - (it goes into the URL as it is): ${advice}.`);
  }
  return token;
}

/** Start the host on 127.0.0.1 and resolve once it listens. Throws SiftError('invalid_argument') for a weak token. */
export async function startHttpHost(sift: Sift, options: HttpHostOptions = {}): Promise<HttpHost> {
  const token = options.token !== undefined ? checkedToken(options.token) : randomBytes(24).toString('base64url');
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
    if (!hostAllowed(req.headers.host, port)) {
      return sendJson(res, 403, fail('unauthorized', 'requests must be addressed to 127.0.0.1'));
    }
    const target = requestTarget(req.url);
    if (!target) return sendJson(res, 400, fail('invalid_argument', 'the request path is not a valid URL path'));
    if (target.pathname.startsWith('/api/')) return api(req, res, target.pathname);
    if (target.pathname === '/mcp') return mcp(req, res);
    if (serveAsset(target.pathname, res)) return;
    // A navigation (or SPA route): the app for the start URL, the note on how to open Sift otherwise.
    if (sameToken(target.search.get('token'), token)) return serveFile(appIndex(), res);
    if (acceptsHtml(req)) return sendLockedPage(res);
    return sendJson(res, 401, fail('unauthorized', UNAUTHORISED));
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    if (!sameToken(bearerToken(req), token)) return sendJson(res, 401, fail('unauthorized', UNAUTHORISED));
    const crossOrigin = crossOriginReason(req, port);
    if (crossOrigin) return sendJson(res, 403, fail('unauthorized', crossOrigin));
    if (pathname === '/api/invoke' && req.method === 'POST') return invoke(req, res);
    if (pathname === '/api/events' && req.method === 'GET') return openStream(req, res);
    return sendJson(res, 404, fail('unknown_operation', `no such endpoint ${req.method} ${pathname}`));
  }

  /** MCP over Streamable HTTP, behind the same token and origin rules as the API. */
  async function mcp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!sameToken(bearerToken(req), token)) return sendJson(res, 401, fail('unauthorized', UNAUTHORISED));
    const crossOrigin = crossOriginReason(req, port);
    if (crossOrigin) return sendJson(res, 403, fail('unauthorized', crossOrigin));
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendJson(res, 405, fail('invalid_argument', 'Sift serves MCP statelessly: POST JSON-RPC messages to /mcp'));
    }
    const body = await jsonBody(req, res);
    if (body !== undefined) await handleMcpHttp(sift, req, res, body);
  }

  /** The parsed JSON body of a request, or undefined once an error answer was sent (415, 413, 400). */
  async function jsonBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
    // A JSON content type cannot be sent by a plain form or a no-cors fetch from another page.
    if (!isJsonBody(req)) {
      req.resume();
      sendJson(res, 415, fail('invalid_argument', 'the request body must be sent as application/json'));
      return undefined;
    }
    const body = await readBody(req, maxBody);
    if (body === null) {
      res.setHeader('connection', 'close');
      sendJson(res, 413, fail('invalid_argument', `request body exceeds ${maxBody} bytes`));
      return undefined;
    }
    try {
      return JSON.parse(body) as unknown;
    } catch {
      sendJson(res, 400, fail('invalid_argument', 'request body is not JSON'));
      return undefined;
    }
  }

  async function invoke(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const parsed = await jsonBody(req, res);
    if (parsed === undefined) return;
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

  /** Serve a file of the built renderer other than index.html; false when `pathname` names none. */
  function serveAsset(pathname: string, res: http.ServerResponse): boolean {
    if (!options.staticDir) return false;
    const root = path.resolve(options.staticDir);
    const wanted = path.resolve(root, '.' + pathname);
    const inside = wanted.startsWith(root + path.sep);
    if (!inside || wanted === path.join(root, 'index.html') || !isFile(wanted)) return false;
    serveFile(wanted, res);
    return true;
  }

  function appIndex(): string | null {
    return options.staticDir ? path.join(path.resolve(options.staticDir), 'index.html') : null;
  }

  function serveFile(file: string | null, res: http.ServerResponse): void {
    if (!file) return sendJson(res, 404, fail('not_found', 'this host serves the API only'));
    if (!isFile(file)) {
      const where = path.dirname(file);
      return sendJson(res, 404, fail('not_found', `the renderer is not built in ${where}; run npm run build:renderer`));
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...PAGE_HEADERS });
    fs.createReadStream(file).pipe(res);
  }

  function sendLockedPage(res: http.ServerResponse): void {
    res.writeHead(401, { 'content-type': TYPES['.html']!, 'www-authenticate': WWW_AUTHENTICATE, ...PAGE_HEADERS });
    res.end(lockedPageHtml(options.staticDir));
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
  // Every 401 says how to authenticate, as HTTP asks (MCP clients read it to know a token is wanted).
  const challenge = status === 401 ? { 'www-authenticate': WWW_AUTHENTICATE } : {};
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...challenge });
  res.end(JSON.stringify(body));
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
