import { describe, expect, it } from 'vitest';
import { parseWikiRefs } from './wiki-refs';

describe('parseWikiRefs', () => {
  // [name, message, refs, rejected as [raw, reason fragment], text]
  const rows: [string, string, string[], [string, string][], string][] = [
    ['one reference', '这是什么 [[wiki/synthesis/sessions/x.md]]', ['wiki/synthesis/sessions/x.md'], [], '这是什么'],
    ['two references keep their order', '[[wiki/b.md]] 和 [[wiki/a.md]] 对比', ['wiki/b.md', 'wiki/a.md'], [], '和 对比'],
    ['a duplicate is dropped', '[[wiki/a.md]] [[wiki/a.md]] 总结', ['wiki/a.md'], [], '总结'],
    ['no reference', '普通文本无引用', [], [], '普通文本无引用'],
    ['a label is ignored', 'Read [[wiki/a.md|the gateway page]] now', ['wiki/a.md'], [], 'Read now'],
    ['the same page with and without a label counts once', '[[wiki/a.md|A]] vs [[wiki/a.md]]', ['wiki/a.md'], [], 'vs'],
    ['whitespace around the path is trimmed', '[[  wiki/a.md  ]] ok', ['wiki/a.md'], [], 'ok'],
    ['spaces inside the path are kept', '[[wiki/my notes.md]]', ['wiki/my notes.md'], [], ''],
    ['a reference glued to Chinese text', '看看[[wiki/a.md]]说了啥', ['wiki/a.md'], [], '看看 说了啥'],
    ['must start with wiki/', '[[notwiki.md]] 说了啥', [], [['[[notwiki.md]]', 'must start with wiki/']], '[[notwiki.md]] 说了啥'],
    ['a plain note link is rejected, and its words stay', '[[Gateway]] runbook', [], [['[[Gateway]]', 'must start with wiki/']], '[[Gateway]] runbook'],
    ['a .. segment is rejected', '[[wiki/../secrets.md]]', [], [['[[wiki/../secrets.md]]', "'..' segment"]], '[[wiki/../secrets.md]]'],
    ['a leading .. is rejected', '[[../wiki/a.md]]', [], [['[[../wiki/a.md]]', "'..' segment"]], '[[../wiki/a.md]]'],
    ['an absolute path is rejected', '[[/etc/passwd]]', [], [['[[/etc/passwd]]', 'absolute']], '[[/etc/passwd]]'],
    ['a drive letter is rejected', '[[C:/wiki/a.md]]', [], [['[[C:/wiki/a.md]]', 'absolute']], '[[C:/wiki/a.md]]'],
    ['a backslash is rejected', '[[wiki\\a.md]]', [], [['[[wiki\\a.md]]', 'backslash']], '[[wiki\\a.md]]'],
    ['a NUL is rejected', '[[wiki/a\0.md]]', [], [['[[wiki/a\0.md]]', 'NUL']], '[[wiki/a\0.md]]'],
    ['an empty path is rejected', '[[]] and [[ | label]]', [], [['[[]]', 'empty'], ['[[ | label]]', 'empty']], '[[]] and [[ | label]]'],
    ['wiki/ alone names no page', '[[wiki/]]', [], [['[[wiki/]]', 'no page']], '[[wiki/]]'],
    ['an empty segment is rejected', '[[wiki//a.md]]', [], [['[[wiki//a.md]]', 'empty']], '[[wiki//a.md]]'],
    ['a . segment is rejected', '[[wiki/./a.md]]', [], [['[[wiki/./a.md]]', "'.'"]], '[[wiki/./a.md]]'],
    ['a rejected duplicate is listed once', '[[x]] [[x]]', [], [['[[x]]', 'wiki/']], '[[x]] [[x]]'],
    ['accepted and rejected together', 'a [[wiki/a.md]] b [[/x]] c', ['wiki/a.md'], [['[[/x]]', 'absolute']], 'a b [[/x]] c'],
    ['a reference does not span lines', '[[wiki/a\n.md]]', [], [], '[[wiki/a\n.md]]'],
    ['single brackets are not a reference', '[wiki/a.md]', [], [], '[wiki/a.md]'],
    ['only a reference leaves no text', '  [[wiki/a.md]]  ', ['wiki/a.md'], [], ''],
  ];

  it.each(rows)('%s', (_name, message, refs, rejected, text) => {
    const parsed = parseWikiRefs(message);
    expect(parsed.refs).toEqual(refs);
    expect(parsed.rejected.map((r) => r.raw)).toEqual(rejected.map(([raw]) => raw));
    parsed.rejected.forEach((r, i) => expect(r.reason).toContain(rejected[i]![1]));
    expect(parsed.text).toBe(text);
  });
});

describe('parseWikiRefs on large input', () => {
  /** Fastest of a few runs of `work` in ms; stops early once a run is far too slow (the old quadratic code). */
  function fastest(work: () => void): number {
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const t0 = performance.now();
      work();
      best = Math.min(best, performance.now() - t0);
      if (best > 2000) break;
    }
    return best;
  }

  // Each shape made one of the old loops quadratic: `includes` over accepted refs, `some` over rejected
  // ones, and regexes anchored at the end of a growing string or of a long run of spaces.
  const shapes: [string, (n: number) => string][] = [
    ['distinct references', (n) => Array.from({ length: n / 20 }, (_, i) => `[[wiki/p${i}.md]] w`).join(' ')],
    ['distinct rejected references', (n) => Array.from({ length: n / 10 }, (_, i) => `[[b${i}]]`).join(' ')],
    ['a long run of spaces before a reference', (n) => ' '.repeat(n) + 'x[[wiki/a.md]]'],
  ];

  it.each(shapes)('%s: one 200k-character input costs about as much as ten of 20k, and well under 2 s', (_name, make) => {
    const small = make(20_000);
    const large = make(200_000);
    const tenSmall = (): void => {
      for (let i = 0; i < 10; i++) parseWikiRefs(small);
    };
    // Warm up the JIT on both sizes before measuring (a first run is several times slower).
    tenSmall();
    parseWikiRefs(large);
    const smallMs = Math.max(fastest(tenSmall), 1);
    const largeMs = fastest(() => parseWikiRefs(large));
    expect(largeMs).toBeLessThan(2000);
    // The same number of characters either way: linear gives about 1, quadratic about 10 or more.
    expect(largeMs / smallMs).toBeLessThan(4);
  }, 600_000);
});
