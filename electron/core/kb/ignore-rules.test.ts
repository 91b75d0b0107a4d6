import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { collapseGlobstars, globProblem, safeIgnore } from './ignore-rules';

/** `a/` followed by twelve `**` segments, then `b`: 40 s per path in the `ignore` library as given. */
const TWELVE = `a/${'**/'.repeat(12)}b`;
const DEEP = `a/${Array.from({ length: 24 }, (_, i) => `d${i}`).join('/')}/c.md`;

describe('collapseGlobstars', () => {
  it.each([
    ['a/**/**/b', 'a/**/b'],
    [TWELVE, 'a/**/b'],
    ['**/**/x.md', '**/x.md'],
    ['!**/**/keep.md', '!**/keep.md'],
    ['docs/**/**', 'docs/**'],
    ['a/**/b/**/c', 'a/**/b/**/c'],
    ['**', '**'],
    ['*.log', '*.log'],
    ['# a/**/**/comment', '# a/**/comment'],
    ['', ''],
  ])('%s → %s', (pattern, collapsed) => {
    expect(collapseGlobstars(pattern)).toBe(collapsed);
  });
});

describe('safeIgnore', () => {
  it('matches the twelve-** pattern at once (it took 40 s before)', () => {
    const rules = safeIgnore([TWELVE], 'test');
    const started = performance.now();
    expect(rules.ignores(DEEP)).toBe(false);
    expect(rules.ignores('a/x/y/b')).toBe(true);
    expect(rules.ignores('a/b')).toBe(true);
    // Generous on purpose (a busy CI machine); the uncollapsed pattern takes tens of seconds here.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps ordinary .gitignore semantics: the same verdicts as the library on a table of rules and paths', () => {
    const gitignore = [
      '# comment',
      '',
      '*.log',
      '!keep.log',
      'build/',
      '/root-only.md',
      'docs/**/draft-*.md',
      '**/tmp',
      'a/**/**/b.md',
      '\\#hash.md',
      'notes/*.bak',
      'x/**',
    ].join('\n');
    const paths = [
      'app.log', 'keep.log', 'sub/keep.log', 'sub/app.log', 'build/', 'src/build/', 'build.md', 'root-only.md',
      'sub/root-only.md', 'docs/draft-1.md', 'docs/a/b/draft-2.md', 'docs/final.md', 'tmp', 'deep/er/tmp', 'tmp.md',
      'a/b.md', 'a/q/b.md', 'a/q/r/b.md', 'b.md', '#hash.md', 'notes/x.bak', 'notes/deep/x.bak', 'x/y.md', 'x',
    ];
    const safe = safeIgnore(gitignore, 'test');
    const plain = ignore().add(gitignore);
    const verdicts = paths.map((p) => [p, safe.ignores(p)]);
    expect(verdicts).toEqual(paths.map((p) => [p, plain.ignores(p)]));
    expect(verdicts.filter(([, ignored]) => ignored).map(([p]) => p)).toEqual([
      'app.log', 'sub/app.log', 'build/', 'src/build/', 'root-only.md', 'docs/draft-1.md', 'docs/a/b/draft-2.md', 'tmp',
      'deep/er/tmp', 'a/b.md', 'a/q/b.md', 'a/q/r/b.md', '#hash.md', 'notes/x.bak', 'x/y.md',
    ]);
  });

  it('leaves out a pattern still too complex, with a warning naming it and its file, and keeps the rest', () => {
    const warnings: string[] = [];
    const spread = `${Array.from({ length: 6 }, (_, i) => `s${i}`).join('/**/')}/z`;
    const rules = safeIgnore(['*.log', spread, `${'x'.repeat(1100)}`], '/notes/.gitignore', (m) => warnings.push(m));
    expect(rules.ignores('a.log')).toBe(true);
    expect(rules.ignores('s0/s1/s2/s3/s4/s5/z')).toBe(false);
    expect(warnings).toEqual([
      `[sift] /notes/.gitignore: left out the pattern "${spread}": too complex to match safely (5 separate "**" segments (at most 3))`,
      `[sift] /notes/.gitignore: left out the pattern "${'x'.repeat(80)}": too complex to match safely (longer than 1024 characters)`,
    ]);
  });

  it('judges exclude globs the same way, after collapsing', () => {
    expect(globProblem(TWELVE)).toBeNull();
    expect(globProblem('a/**/b/**/c/**/d/**/e')).toBe('4 separate "**" segments (at most 3)');
    expect(globProblem('*'.repeat(40))).toBe('40 wildcards (at most 32)');
  });
});
