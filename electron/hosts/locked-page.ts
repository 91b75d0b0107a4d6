/**
 * The page a browser gets when it opens the loopback host without the token: a short bilingual note
 * saying how to open Sift, instead of a raw JSON 401. When the renderer is built, the note goes inside
 * its page, so a tab that already holds the token (a reload) still starts the app over it.
 */
import fs from 'node:fs';
import path from 'node:path';

// Hidden for a moment, then shown: on a reload the app replaces the note before it ever appears.
const NOTE = `<main class="sift-locked">
<style>
.sift-locked { max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; font: 16px/1.6 system-ui, sans-serif;
  animation: sift-locked-appear 0s 0.4s both; }
@keyframes sift-locked-appear { from { visibility: hidden } to { visibility: visible } }
</style>
<h1>Open Sift with the link it printed</h1>
<p>This tab has no key for Sift. When Sift starts it prints a link such as
<code>http://127.0.0.1:PORT/?token=…</code> (“Sift is running at …”). Copy that whole link and open it.
Each new tab or window needs that link again; a reload of a tab opened with it keeps working.</p>
<h1 lang="zh-CN">请用 Sift 打印的链接打开</h1>
<p lang="zh-CN">此标签页没有 Sift 的密钥。Sift 启动时会打印一个链接，例如
<code>http://127.0.0.1:PORT/?token=…</code>（“Sift is running at …”）。请复制完整链接并打开。
每个新标签页或窗口都需要再次打开这个链接；用它打开的标签页刷新后仍可使用。</p>
</main>`;

const ROOT = '<div id="root"></div>';

/**
 * The HTML of the token-less page: the built renderer's `index.html` with the note inside its root
 * element when `staticDir` holds one, otherwise a page of its own.
 */
export function lockedPageHtml(staticDir: string | undefined): string {
  const index = staticDir ? readIndex(staticDir) : null;
  if (index?.includes(ROOT)) return index.replace(ROOT, `<div id="root">${NOTE}</div>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sift</title></head><body>${NOTE}</body></html>`;
}

function readIndex(staticDir: string): string | null {
  try {
    return fs.readFileSync(path.join(path.resolve(staticDir), 'index.html'), 'utf8');
  } catch {
    return null;
  }
}
