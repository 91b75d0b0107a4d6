/**
 * Markdown as a terminal shows it (issue #25 item 8): the CLI printed `\*\*`, `\&nbsp;` and flattened fences.
 * Escapes are read, character references decoded, code (fenced blocks and code spans) kept exactly as written,
 * and the same comes out when the text arrives a character at a time, as a streamed answer does.
 */
import { describe, expect, it } from 'vitest';
import { decodeEntities, ReadableMarkdown, readableMarkdown } from './markdown-text';

const ANSWER = [
  '1. **Guide** — The \\*\\*safeParse\\*\\* method\\&nbsp;returns a result \\& never throws; `a \\* b` stays &amp; so does \\`x\\`. [1]',
  '',
  '   ```js',
  "   const star = '\\*'; // &amp; [2]",
  '   ```',
  '',
  '   After parsing, check `r.success`. [1]',
  '~~~',
  '\\[not read\\]',
  '~~~',
  'Café &eacute; &#x4E2D;&#25991; &unknown; \\\\ done',
].join('\n');

const READ = [
  '1. **Guide** — The **safeParse** method&nbsp;returns a result & never throws; `a \\* b` stays & so does `x`. [1]',
  '',
  '   ```js',
  "   const star = '\\*'; // &amp; [2]",
  '   ```',
  '',
  '   After parsing, check `r.success`. [1]',
  '~~~',
  '\\[not read\\]',
  '~~~',
  'Café &eacute; 中文 &unknown; \\ done',
].join('\n');

describe('readableMarkdown', () => {
  it('reads escapes and references outside code, and leaves code as written', () => {
    expect(readableMarkdown(ANSWER)).toBe(READ);
  });

  it('gives the same text when fed a character at a time, and shows words before the line ends', () => {
    const reader = new ReadableMarkdown();
    let out = '';
    let shownEarly = false;
    for (const ch of ANSWER) {
      out += reader.write(ch);
      if (!shownEarly && out.includes('The **safeParse**') && !out.includes('\n')) shownEarly = true;
    }
    out += reader.end();
    expect(out).toBe(READ);
    expect(shownEarly).toBe(true);
  });

  it('decodes the references documentation uses and keeps unknown ones', () => {
    expect(decodeEntities('a&nbsp;b &amp; &lt;c&gt; &#39;q&#39; &mdash; &bogus;')).toBe('a\u00a0b & <c> \'q\' — &bogus;');
  });
});
