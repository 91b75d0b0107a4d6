/**
 * A source file's outline: classes, functions and methods declared with their language's keyword (and methods
 * inside a class) are headings nested by indentation, a one-line definition is none. The outline names where a
 * passage is; a code page is still cut into the same windows (prepare.ts), and a search's passage is labelled by
 * the definition it is shown from.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/temp';
import { sectionsAndChunks } from '../prepare';
import { call, makeKb, openCore, writeFiles } from '../testing/fixtures';
import { codeHeadings } from './code-outline';
import { parseFile } from './index';

const outline = (text: string, language: string) => codeHeadings(text, language).map((h) => [h.level, h.text]);

const PYTHON = [
  'import os',
  '',
  'class RotatingFileHandler(BaseRotatingHandler):',
  '    """Rotate at a size."""',
  '',
  '    def __init__(self, filename, maxBytes=0):',
  '        self.maxBytes = maxBytes',
  '',
  '    @property',
  '    def size(self): return self.maxBytes',
  '',
  '    def shouldRollover(self, record):',
  '        def inner():',
  '            return 1',
  '        return inner()',
  '',
  'async def fetch(url,',
  '                timeout=None):',
  '    return await get(url)',
  '',
  'class Empty(Exception): pass',
  '',
  'def urljoin(base, url, allow_fragments=True):',
  '    """Join a base URL and a possibly relative URL."""',
  '    return base + url',
  '',
].join('\n');

describe('the outline of a source file', () => {
  it('reads Python classes, methods and functions by indentation, not one-line definitions', () => {
    expect(outline(PYTHON, 'python')).toEqual([
      [1, 'RotatingFileHandler'], [2, '__init__'], [2, 'shouldRollover'], [3, 'inner'], [1, 'fetch'], [1, 'urljoin'],
    ]);
    const h = codeHeadings(PYTHON, 'python').find((x) => x.text === 'urljoin')!;
    expect(PYTHON.slice(h.start, h.end)).toBe('def urljoin(base, url, allow_fragments=True):');
  });

  it('reads JavaScript and TypeScript: classes and their methods, functions, CommonJS exports, arrow constants, types', () => {
    const js = [
      'class Range {',
      '  constructor (range, options) {',
      '    if (range instanceof Range) {',
      '      return range',
      '    }',
      '  }',
      '',
      '  get range () {',
      '    return this.formatted',
      '  }',
      '',
      '  static async parse (text) {',
      '    for (const c of text) {',
      '      use(c)',
      '    }',
      '  }',
      '  format () { return this.range }',
      '}',
      '',
      'const isSatisfiable = (comparators, options) => {',
      '  return true',
      '}',
      '',
      'exports.minimatch = function (p, pattern) {',
      '  return false',
      '}',
      '',
      'export default async function handler(req) {',
      '  return req',
      '}',
      '',
      'export interface KeywordOptions {',
      '  sectionWeight?: number;',
      '}',
      '',
      'const total = values.reduce((a, b) => a + b, 0);',
      'function noop() {}',
      '',
    ].join('\n');
    expect(outline(js, 'typescript')).toEqual([
      [1, 'Range'], [2, 'constructor'], [2, 'range'], [2, 'parse'], [1, 'isSatisfiable'], [1, 'minimatch'], [1, 'handler'], [1, 'KeywordOptions'],
    ]);
  });

  it('reads Go, Rust, C, Java and shell definitions that have a body', () => {
    const go = 'package x\n\ntype Reader struct {\n\tbuf []byte\n}\n\nfunc (r *Reader) Read(p []byte) (int, error) {\n\treturn 0, nil\n}\n\nfunc New() *Reader {\n\treturn &Reader{}\n}\n';
    expect(outline(go, 'go')).toEqual([[1, 'Reader'], [1, 'Reader.Read'], [1, 'New']]);
    const rust = 'pub struct Tokenizer {\n    pos: usize,\n}\n\nimpl Tokenizer {\n    pub fn next(&mut self) -> Option<Token> {\n        None\n    }\n}\n\nfn helper(x: u32) -> u32;\n';
    expect(outline(rust, 'rust')).toEqual([[1, 'Tokenizer'], [1, 'Tokenizer'], [2, 'next']]);
    const c = '#include <stdio.h>\n\nstruct point {\n    int x;\n};\n\nstatic int\nparse_args(int argc, char **argv)\n{\n    return 0;\n}\n\nint main(void) {\n    if (parse_args(0, 0)) {\n        return 1;\n    }\n    return 0;\n}\n\nint declared(void);\n';
    expect(outline(c, 'c')).toEqual([[1, 'point'], [1, 'parse_args'], [1, 'main']]);
    const java = 'public class Greeter {\n    private final String name;\n\n    public String greet(String who) {\n        if (who == null) {\n            return name;\n        }\n        return who;\n    }\n}\n';
    expect(outline(java, 'java')).toEqual([[1, 'Greeter'], [2, 'greet']]);
    const sh = 'usage() {\n  echo "usage"\n}\n\nfunction build {\n  make\n}\n';
    expect(outline(sh, 'bash')).toEqual([[1, 'usage'], [1, 'build']]);
    expect(codeHeadings('a: 1\nb:\n  c: 2\n', 'yaml')).toEqual([]);
  });

  it('cuts a code page into the same windows as without its outline, each under the definitions where it starts', async () => {
    const body = (name: string) => [`def ${name}(value):`, ...Array.from({ length: 30 }, (_, i) => `    value = transform_${name}_${i}(value)  # step ${i} of ${name}`), '    return value', ''];
    const text = ['import os', '', ...body('first'), ...body('second'), ...body('third')].join('\n');
    const doc = await parseFile('steps.py', Buffer.from(text));
    expect(doc.headings.map((h) => h.text)).toEqual(['first', 'second', 'third']);
    const withOutline = sectionsAndChunks(doc);
    const without = sectionsAndChunks({ ...doc, headings: [] });
    expect(withOutline.chunks).toEqual(without.chunks);
    expect(withOutline.sections.map((s) => [s.start, s.end])).toEqual(without.sections.map((s) => [s.start, s.end]));
    for (const s of withOutline.sections) {
      const before = doc.headings.filter((h) => h.start <= s.start).at(-1);
      expect(s.headingPath).toEqual(before ? [before.text] : []);
    }
  });

  it('labels a passage of code by the definition it is shown from', async () => {
    const root = fs.realpathSync(tempDir());
    const filler = (name: string, n: number) => Array.from({ length: n }, (_, i) => `    parts.append(normalise_${name}_part(parts, ${i}))  # keep part ${i}`);
    writeFiles(root, {
      'lib/parse.py': [
        'def urlunsplit(components):',
        '    parts = []',
        ...filler('unsplit', 12),
        '    return "".join(parts)',
        '',
        'def urljoin(base, url, allow_fragments=True):',
        '    """Join a base URL and a possibly relative URL to form an absolute interpretation of the latter."""',
        '    parts = [base]',
        ...filler('join', 12),
        '    return "/".join(parts)',
        '',
      ].join('\n'),
    });
    const sift = openCore(tempDir());
    try {
      const kb = await makeKb(sift, 'code', [root]);
      expect((await sift.ingest(kb)).state).toBe('done');
      const found = await call(sift, 'search.query', { kb, query: 'absolute interpretation of a relative URL', mode: 'keyword' });
      const top = found.passages[0]!;
      expect(top.text.slice(top.focus ?? 0)).toContain('Join a base URL');
      expect(top.provenance.headingPath).toEqual(['urljoin']);
      expect(top.provenance.lines).not.toBeNull();
    } finally {
      await sift.close();
    }
  }, 40_000);
});
