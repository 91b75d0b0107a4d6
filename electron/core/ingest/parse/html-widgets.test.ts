/**
 * Page furniture adds no text (issue #25 item 8): permalink anchors in headings (`File system#`, Sphinx's `¶`,
 * `class="headerlink"`/`anchor`) and in the body; copy-to-clipboard buttons and widgets inside or next to
 * `<pre>` (`}copy`). What only looks like them stays: a real link, a "copyright" line, a wrapper holding the code.
 */
import { describe, expect, it } from 'vitest';
import { htmlToText } from './html';
import { parseFile } from './index';

// Shaped like Node's API docs, a Sphinx page and a docs site with copy buttons.
const NODE_DOC = `<!doctype html><html><head><title>File system | Node.js</title></head><body><main>
<h2>File system<span><a class="mark" href="#file-system" id="file-system">#</a></span></h2>
<p>The <code>node:fs</code> module enables interacting with the file system.</p>
<h3>Promises API<span><a class="mark" href="#promises-api" id="promises-api">#</a></span></h3>
<div class="highlight"><pre><code>import { readFile } from 'node:fs/promises';
try {
  await readFile('x');
} catch {}</code><button class="copy-button">copy</button></pre></div>
<pre class="with-39-chars"><input class="js-flavor-toggle" type="checkbox" checked aria-label="Show modern ES modules syntax"><code class="language-js mjs">import * as fs from 'node:fs/promises';</code><code class="language-js cjs">const fs = require('node:fs/promises');</code><button class="copy-button">copy</button></pre>
<p>See <a href="#file-system">File system</a> above.</p>
</main></body></html>`;

const SPHINX = `<html><body><div class="body">
<h1>json — JSON encoder and decoder<a class="headerlink" href="#module-json" title="Link to this heading">¶</a></h1>
<p>Text.</p>
<h2 id="usage"><a class="anchor" href="#usage" aria-hidden="true"><svg></svg></a>Basic usage</h2>
<h2>Options <a href="#options">🔗</a></h2>
<h2>Limits <a href="#limits">§</a></h2>
<div class="highlight-python"><div class="highlight"><pre>x = 1
</pre></div><span class="copybtn o-tooltip--left" data-tooltip="Copy">Copy</span></div>
<clipboard-copy value="y = 2">Copy to clipboard</clipboard-copy>
<p>Read the <a href="https://example.org/">full guide</a> and section <a href="#usage">usage</a>.</p>
<div class="copyright">© 2024 The Authors.</div>
<div class="code-copy"><pre>z = 3</pre></div>
</div></body></html>`;

describe('HTML furniture', () => {
  it('strips permalink marks from headings and copy buttons from code (Node docs shape)', () => {
    const { text, headings } = htmlToText(NODE_DOC);
    expect(headings.map((h) => h.text)).toEqual(['File system', 'Promises API']);
    expect(text).not.toMatch(/#\n|copy/);
    expect(text).toContain("await readFile('x');\n} catch {}\n\nimport * as fs from 'node:fs/promises';\n\nconst fs = require('node:fs/promises');\n\nSee File system above.");
    for (const h of headings) expect(text.slice(h.start, h.end)).toBe(h.text);
  });

  it('strips ¶, 🔗, §, headerlink and anchor links, keeps real links and content that only looks like a widget', () => {
    const { text, headings } = htmlToText(SPHINX);
    expect(headings.map((h) => h.text)).toEqual(['json — JSON encoder and decoder', 'Basic usage', 'Options', 'Limits']);
    expect(text).not.toMatch(/[¶§🔗]|Copy/);
    expect(text).toContain('x = 1\n\nRead the full guide and section usage.');
    expect(text).toContain('© 2024 The Authors.');
    expect(text).toContain('z = 3');
  });

  it('judges an element by text that comes after nested elements, and keeps what it holds in order', () => {
    // Each element's fate is known only from text or code further in: a link whose text turns out to be
    // words, a copy-named wrapper that turns out long or to hold code, with furniture of its own inside.
    const html = '<body><p>See <a href="#x"><span>¶</span> the <b>setup</b></a> section.</p>' +
      '<div class="copy-note">Short <a href="#n">#</a><em>note</em>, then enough words to pass forty characters.</div>' +
      '<div class="clipboard"><span>Run</span> <code>npm ci</code><button>Copy</button></div>' +
      '<h2>Limits<span class="copy">copied!</span></h2><p>after</p></body>';
    const { text, headings } = htmlToText(html);
    expect(text).toBe(
      'See ¶ the setup section.\n\nShort note, then enough words to pass forty characters.\nRun npm ci\n\nLimits\n\nafter',
    );
    expect(headings.map((h) => h.text)).toEqual(['Limits']);
  });

  it('gives heading paths without the marks through the parser', async () => {
    const doc = await parseFile('fs.html', Buffer.from(NODE_DOC));
    expect(doc.headings.map((h) => h.text)).toEqual(['File system', 'Promises API']);
    expect(doc.text).not.toContain('}copy');
  });
});
