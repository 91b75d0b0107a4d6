/**
 * Code a program wrote for programs (a minified bundle, a documentation generator's search index) is listed as
 * not read, with its reason; code people write, small one-line files and prose with long lines are indexed.
 * On the Rust manuals, mdBook's `searchindex-*.js` (every page again, as one line of 4.7 MB) held a third of
 * the knowledge base's chunks and took the first passage of three questions in twenty.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, writeFiles } from './testing/fixtures';
import { MACHINE_MADE_LINE_AVERAGE, MACHINE_MADE_MIN_LENGTH, machineMadeAverage } from './parse';

/** A documentation generator's search index: the manual's text as one JSON line. */
function searchIndex(): string {
  const docs = Array.from({ length: 60 }, (_, i) => ({
    title: `Chapter ${i}`,
    body: `The borrowck pass checks every borrow of section ${i}. References must not outlive the value they point to.`.repeat(6),
  }));
  return `window.search = Object.assign(window.search, JSON.parse('${JSON.stringify({ doc_urls: docs.map((_, i) => `ch${i}.html`), docs })}'));\n`;
}

/** A minified bundle: statements run together on a few lines of several thousand characters. */
function minified(): string {
  const line = Array.from({ length: 200 }, (_, i) => `function a${i}(e,t){return hljsRegistry.add(e,t+${i})}`).join(';');
  return `/*! highlight.js v11 | BSD3 License */\n${line};\n${line};\n${line};\n`;
}

/** Code a person wrote: short lines, comments, 25,000 characters. */
function handWritten(): string {
  const out = ['// A small lexer for shell scripts.', 'export function tokenizeHeredoc(source) {', '  const tokens = [];'];
  for (let i = 0; out.join('\n').length < 25_000; i++) {
    out.push(`  // step ${i}: read the next word`, `  if (source[${i}] === '<') tokens.push({ kind: 'redirect', at: ${i} });`);
  }
  out.push('  return tokens;', '}');
  return `${out.join('\n')}\n`;
}

describe('code made by a program', () => {
  it('a minified bundle and a search index are listed as not read; hand-written code, small files and prose are indexed', async () => {
    const root = fs.realpathSync(tempDir());
    const prose = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} explains how borrowck reasons about lifetimes, written as one line the way many editors save prose. `.repeat(6)).join('\n\n');
    writeFiles(root, {
      'book/searchindex-6a1da8cc.js': searchIndex(),
      'vendor/highlight.min.js': minified(),
      'src/lexer.js': handWritten(),
      'data/settings.json': `{"quartermaster":${JSON.stringify('x'.repeat(5000))}}`,
      'notes/borrowing.md': `# Borrowing\n\n${prose}\n`,
    });
    const sift = openCore(tempDir());
    try {
      const kb = await makeKb(sift, 'manuals', [root]);
      const status = await sift.ingest(kb);
      expect(status.state).toBe('done');
      const pages = (await call(sift, 'pages.list', { kb })).map((p) => p.path);
      expect(pages).toEqual(['wiki/data/settings.json', 'wiki/notes/borrowing.md', 'wiki/src/lexer.js']);
      const index = searchIndex();
      const bundle = minified();
      expect(status.problems.map((p) => [p.relPath, p.status, p.reason])).toEqual([
        [
          'book/searchindex-6a1da8cc.js', 'skipped',
          `code made by a program, not a document: its lines average ${index.length.toLocaleString("en-US")} characters (minified or generated; searchindex-6a1da8cc.js)`,
        ],
        [
          'vendor/highlight.min.js', 'skipped',
          `code made by a program, not a document: its lines average ${Math.round(bundle.length / 4).toLocaleString("en-US")} characters (minified or generated; highlight.min.js)`,
        ],
      ]);
      const borrowck = await call(sift, 'search.query', { kb, query: 'borrowck', mode: 'keyword' });
      expect(new Set(borrowck.passages.map((p) => p.pagePath))).toEqual(new Set(['wiki/notes/borrowing.md']));
      const lexer = await call(sift, 'search.query', { kb, query: 'tokenizeHeredoc', mode: 'keyword' });
      expect(lexer.passages[0]?.pagePath).toBe('wiki/src/lexer.js');
      const small = await call(sift, 'search.query', { kb, query: 'quartermaster', mode: 'keyword' });
      expect(small.passages[0]?.pagePath).toBe('wiki/data/settings.json');
    } finally {
      await sift.close();
    }
  }, 40_000);

  it('draws the line at the average line length, and only for code long enough to judge', () => {
    const lines = (count: number, length: number) => Array.from({ length: count }, () => 'x'.repeat(length - 1)).join('\n') + '\n';
    // 100 lines of 200 characters (with their line ends) average 200 exactly: read.
    const atLimit = lines(100, MACHINE_MADE_LINE_AVERAGE);
    expect(atLimit.length).toBe(MACHINE_MADE_MIN_LENGTH);
    expect(machineMadeAverage(atLimit)).toBeNull();
    expect(machineMadeAverage(lines(80, 250))).toBe(250);
    // Shorter than the minimum: a one-line file is read, whatever its line.
    expect(machineMadeAverage('y'.repeat(MACHINE_MADE_MIN_LENGTH - 1))).toBeNull();
    expect(machineMadeAverage('y'.repeat(MACHINE_MADE_MIN_LENGTH))).toBe(MACHINE_MADE_MIN_LENGTH);
  });
});
