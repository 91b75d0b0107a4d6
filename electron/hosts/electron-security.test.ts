/** The Electron host's security decisions, as the plain functions `electron/main.ts` wires in. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './csp';
import { APP_START_URL, isAppUrl, isPermissionAllowed, isTrustedSender, resolveAppFile } from './electron-security';

const DEV = 'http://localhost:5173/';
const ROOT = path.resolve('/srv/sift/out/renderer');

describe('isTrustedSender', () => {
  it.each([
    [{ url: APP_START_URL, isMainFrame: true }, null, true],
    [{ url: 'app://sift/index.html#/chat', isMainFrame: true }, null, true],
    [{ url: APP_START_URL, isMainFrame: false }, null, false], // an iframe inside the app
    [{ url: 'app://evil/index.html', isMainFrame: true }, null, false],
    [{ url: 'file:///srv/sift/out/renderer/index.html', isMainFrame: true }, null, false],
    [{ url: 'https://example.com/', isMainFrame: true }, null, false],
    [{ url: '', isMainFrame: true }, null, false], // the frame is gone
    [{ url: undefined, isMainFrame: true }, null, false],
    [null, null, false],
    [{ url: 'http://localhost:5173/', isMainFrame: true }, DEV, true], // npm run dev
    [{ url: 'http://localhost:5173/src/main.tsx', isMainFrame: true }, DEV, true],
    [{ url: 'http://localhost:5173/', isMainFrame: true }, null, false], // not in a built app
    [{ url: 'http://localhost:5174/', isMainFrame: true }, DEV, false],
    [{ url: 'http://localhost:5173.evil.com/', isMainFrame: true }, DEV, false],
  ])('%j (dev server %s) → %s', (frame, dev, expected) => {
    expect(isTrustedSender(frame, dev)).toBe(expected);
  });
});

describe('isPermissionAllowed', () => {
  it('denies by default, allows only clipboard writes from the app itself', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', APP_START_URL, null)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com/', null)).toBe(false);
    const others = ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fullscreen', 'hid'];
    for (const permission of others) {
      expect(isPermissionAllowed(permission, APP_START_URL, null), permission).toBe(false);
    }
    expect(isPermissionAllowed('clipboard-sanitized-write', DEV, DEV)).toBe(true);
  });

  it('judges navigation targets the same way', () => {
    expect(isAppUrl('app://sift/other.html', null)).toBe(true);
    expect(isAppUrl('https://sift/', null)).toBe(false);
    expect(isAppUrl('not a url', null)).toBe(false);
  });
});

describe('resolveAppFile', () => {
  it.each([
    ['app://sift/index.html', 'index.html', 'text/html; charset=utf-8'],
    ['app://sift/', 'index.html', 'text/html; charset=utf-8'],
    ['app://sift', 'index.html', 'text/html; charset=utf-8'],
    ['app://sift/assets/index-abc.js?v=1#x', 'assets/index-abc.js', 'text/javascript; charset=utf-8'],
    ['app://sift/assets/%E4%B8%AD%E6%96%87.css', 'assets/中文.css', 'text/css; charset=utf-8'],
    // Dot segments, plain or %2e-encoded, are removed by URL parsing at the root: the file stays inside.
    ['app://sift/../../etc/passwd', 'etc/passwd', 'application/octet-stream'],
    ['app://sift/%2e%2e/%2e%2e/etc/passwd', 'etc/passwd', 'application/octet-stream'],
  ])('%s → %s', (url, rel, type) => {
    const got = resolveAppFile(url, ROOT);
    expect(got?.file).toBe(path.join(ROOT, ...rel.split('/')));
    expect(got?.headers).toEqual({ 'content-type': type, 'content-security-policy': CONTENT_SECURITY_POLICY });
  });

  it.each([
    'app://sift/assets/..%2F..%2F..%2Fetc%2Fpasswd',
    'app://sift/..%5C..%5Cwindows%5Cwin.ini',
    'app://sift/assets%5C..%5C..%5Csecret',
    'app://sift/index.html%00.js',
    'app://sift/C:/Windows/win.ini',
    'app://sift/%E0%A4%A',
    'app://evil/index.html',
    'file:///etc/passwd',
    'https://sift/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppFile(url, ROOT)).toBeNull();
  });
});
