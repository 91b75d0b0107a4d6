/**
 * The Electron host's security decisions as plain functions, so they are tested under Node (no
 * Electron binary here) and `electron/main.ts` only wires them in: which frame may call the core
 * over IPC, which permission a page may have, and how an `app://` URL maps to a file of the built
 * renderer without ever leaving its folder.
 */
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp';

/** The scheme the renderer is served from instead of `file://` (a real origin; no access to other files). */
export const APP_SCHEME = 'app';
/** The one host of that scheme: the renderer lives at `app://sift/index.html`. */
export const APP_HOST = 'sift';
/** Where the window opens. */
export const APP_START_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** What Electron tells about the frame that sent an IPC message (`event.senderFrame`). */
export interface SenderFrame {
  /** The frame's URL; empty or missing when the frame is gone. */
  url: string | undefined;
  /** True for the window's top frame; an iframe never speaks for the app. */
  isMainFrame: boolean;
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    // `new URL` gives the string 'null' as the origin of non-special schemes such as app:
    return parsed.protocol === `${APP_SCHEME}:` ? `${APP_SCHEME}://${parsed.host}` : parsed.origin;
  } catch {
    return null;
  }
}

/** The origins whose pages are Sift: `app://sift`, and in `npm run dev` the Vite dev server's. */
function trustedOrigins(devServerUrl: string | null): string[] {
  const dev = originOf(devServerUrl ?? undefined);
  return [`${APP_SCHEME}://${APP_HOST}`, ...(dev && dev !== 'null' ? [dev] : [])];
}

/** True when `url` is one of Sift's own pages (what navigation and permissions are judged by). */
export function isAppUrl(url: string | undefined, devServerUrl: string | null): boolean {
  const origin = originOf(url);
  return origin !== null && trustedOrigins(devServerUrl).includes(origin);
}

/**
 * May this frame call the core? Only the top frame of one of Sift's own pages: a page that
 * navigated elsewhere, an iframe or a frame already gone is refused.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, devServerUrl: string | null): boolean {
  return !!frame && frame.isMainFrame && isAppUrl(frame.url, devServerUrl);
}

/** Permissions Sift's pages use: writing to the clipboard ("copy answer"). Everything else is denied. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/**
 * Grant `permission` to the page at `requestingUrl`? Denied by default: only a listed permission,
 * asked by one of Sift's own pages.
 */
export function isPermissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  devServerUrl: string | null,
): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl, devServerUrl);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** A file of the renderer to answer an `app://` request with. */
export interface AppFile {
  /** Absolute path inside the renderer folder. */
  file: string;
  /** Response headers: the content type and the same Content-Security-Policy as every host. */
  headers: Record<string, string>;
}

/**
 * The file of `rootDir` (the built renderer) that `url` names, or null when it names none: another
 * scheme or host, a path that would leave the folder (`..`, encoded or not, backslashes, NUL), or
 * an absolute path in disguise. `app://sift/` is `index.html`. The caller still answers 404 for a
 * file that does not exist.
 */
export function resolveAppFile(url: string, rootDir: string): AppFile | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(parsed.pathname);
  } catch {
    return null; // malformed escapes
  }
  if (relative.includes('\0') || relative.includes('\\')) return null;
  const parts = relative.split('/').filter((part) => part !== '');
  if (parts.some((part) => part === '..' || part === '.' || /^[A-Za-z]:$/.test(part))) return null;
  const root = path.resolve(rootDir);
  const file = path.resolve(root, ...(parts.length ? parts : ['index.html']));
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { file, headers: { 'content-type': type, 'content-security-policy': CONTENT_SECURITY_POLICY } };
}
