/**
 * The checks the loopback HTTP host makes before a request reaches the core: who may call (the
 * token, only in a header), from where (not from another origin — a page on another 127.0.0.1 port is
 * "same-site" to the browser but is not Sift), in what form (JSON only), and how much (bounded bodies).
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

/** Whether the Host header names this host's loopback address (no DNS rebinding through other names). */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * The token of `Authorization: Bearer <token>`, or null. Only a header counts: a browser attaches
 * cookies to requests from any page (and to every port of 127.0.0.1), but only Sift's own script
 * can set this header. The scheme is case-insensitive (RFC 9110 §11.1: `bearer` is `Bearer`).
 */
export function bearerToken(req: http.IncomingMessage): string | null {
  const match = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/** The challenge a 401 answer carries (RFC 9110 §11.6.1): how to authenticate, here the host's bearer token. */
export const WWW_AUTHENTICATE = 'Bearer realm="sift"';

/** Whether `given` is the host's token, compared in constant time. */
export function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a request comes from a page of another origin, or null when it does not. Browsers send
 * `Origin` on POSTs and `Sec-Fetch-Site` on everything; clients that are not browsers (the CLI,
 * tests, scripts) send neither and are judged by the token alone.
 */
export function crossOriginReason(req: http.IncomingMessage, port: number): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
    return `requests from ${origin} are not accepted; only Sift's own page may call it`;
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `a ${site} request is not accepted; only Sift's own page may call it`;
  }
  return null;
}

/** Whether the request declares a JSON body (`application/json`, any parameters). */
export function isJsonBody(req: http.IncomingMessage): boolean {
  const type = req.headers['content-type'] ?? '';
  return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * The request's path and query, or null when the target cannot be read (a bad percent-encoding, or
 * something that is not a path at all); the caller answers 400 instead of failing later.
 */
export function requestTarget(raw: string | undefined): { pathname: string; search: URLSearchParams } | null {
  try {
    const url = new URL(raw ?? '/', 'http://127.0.0.1');
    return { pathname: decodeURIComponent(url.pathname), search: url.searchParams };
  } catch {
    return null;
  }
}

/** Bytes of an oversized body still read (and dropped) before the connection is cut. Default 16 MiB. */
const DRAIN_LIMIT = 16 << 20;

/**
 * The request body as UTF-8, or null when it is larger than `max` bytes. An oversized body is read
 * to its end and dropped (up to 16 MiB), so the client, still sending, gets the 413 answer instead of
 * a reset connection; beyond that the connection is cut.
 */
export function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > max;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) {
        resolve(null);
        req.destroy();
      }
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
