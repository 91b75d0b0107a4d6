import { describe, expect, it } from 'vitest';
import { boundaryAt, findCut, graphemeBoundary, isWhitespace, overlapStart, skipWhitespace, trimEndAt, type CutKind } from './sentences';

/** Where `|` stands in `marked`, and the text without it. */
function at(marked: string): [string, number] {
  const p = marked.indexOf('|');
  return [marked.slice(0, p) + marked.slice(p + 1), p];
}

describe('boundaryAt', () => {
  const cases: [string, CutKind | null][] = [
    ['One.| Two', 'sentence'],
    ['Why?| Because', 'sentence'],
    ['Stop!|', 'sentence'],
    ['first;| second', 'sentence'],
    ['pi is 3.|14', null],
    ['a;|b', null],
    ['He said "stop."| Then', 'sentence'],
    ['超时了。|重试', 'sentence'],
    ['真的！|好', 'sentence'],
    ['为什么？|因为', 'sentence'],
    ['第一；|第二', 'sentence'],
    ['他说：「好。」|然后', 'sentence'],
    ['首先，|然后', 'clause'],
    ['甲、|乙', 'clause'],
    ['line one\n|line two', 'line'],
    ['para one\n\n|para two', 'paragraph'],
    ['two words', null],
    ['two |words', 'space'],
    ['in|side', null],
  ];
  it.each(cases)('%j → %s', (marked, kind) => {
    const [text, p] = at(marked);
    expect(boundaryAt(text, p)).toBe(kind);
  });

  it('has no boundary before the text or past its end', () => {
    expect(boundaryAt('abc', 0)).toBeNull();
    expect(boundaryAt('abc', 4)).toBeNull();
  });
});

describe('findCut', () => {
  const text = 'Alpha beta gamma. Delta epsilon\nzeta eta theta iota kappa';
  it('prefers a sentence end over a line break and spaces', () => {
    expect(findCut(text, 5, text.length, 40, false)).toBe(text.indexOf('.') + 1);
  });
  it('takes a line break when no sentence ends in the window', () => {
    expect(findCut(text, 20, text.length, 40, false)).toBe(text.indexOf('\n') + 1);
  });
  it('takes the space nearest the target when only spaces remain', () => {
    const p = findCut(text, 33, text.length, 42, false);
    expect(text[p! - 1]).toBe(' ');
    for (let q = 33; q <= text.length; q++) if (text[q - 1] === ' ') expect(Math.abs(q - 42)).toBeGreaterThanOrEqual(Math.abs(p! - 42));
  });
  it('returns null when the window holds no boundary', () => {
    expect(findCut('abcdefghij', 2, 8, 5, false)).toBeNull();
  });
  it('ranks a paragraph above a sentence only when asked to', () => {
    const t = 'One.\n\nTwo. Three. Four.';
    expect(findCut(t, 1, t.length - 1, 17, true)).toBe(6);
    expect(findCut(t, 1, t.length - 1, 17, false)).toBe(t.indexOf('Three.') + 6);
  });
});

describe('graphemeBoundary', () => {
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  it('never splits emoji, skin tones, ZWJ families or combining marks', () => {
    const text = '🙂👍🏽👨‍👩‍👧e\u0301🇨🇳家';
    const real = new Set([...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((g) => g.index));
    for (let p = 1; p < text.length; p++) {
      const b = graphemeBoundary(text, p, 0, text.length);
      expect(real.has(b), `cut ${p} → ${b}`).toBe(true);
      expect(text.slice(0, b)).not.toMatch(lone);
    }
  });
  it('keeps a plain cut where it is', () => {
    expect(graphemeBoundary('abcdef', 3, 0, 6)).toBe(3);
    expect(graphemeBoundary('超时重试', 2, 0, 4)).toBe(2);
  });
  it('stays inside (min, max]', () => {
    const text = '👨‍👩‍👧'.repeat(3);
    const b = graphemeBoundary(text, 3, 0, 5);
    expect(b).toBeGreaterThan(0);
    expect(b).toBeLessThanOrEqual(5);
  });
});

describe('overlapStart', () => {
  it('moves forward to a sentence start inside the overlap', () => {
    const text = 'Words words words words words. Next one is here';
    // The overlap would start inside "words."; the next sentence starts 4 characters later.
    const s = overlapStart(text, 0, text.length, 20);
    expect(s).toBe(text.indexOf('Next'));
  });
  it('falls back to a word start', () => {
    const text = 'aaaa bbbb cccc dddd eeee ffff gggg';
    const s = overlapStart(text, 0, text.length, 12);
    expect(text[s - 1]).toBe(' ');
    expect(s).toBeGreaterThanOrEqual(text.length - 12);
  });
  it('is strictly after the previous start and before its end, whatever the overlap', () => {
    const text = 'x'.repeat(50);
    for (const [start, end, overlap] of [[0, 2, 100], [10, 12, 1], [0, 50, 25], [5, 6, 3]] as const) {
      const s = overlapStart(text, start, end, overlap);
      expect(s).toBeGreaterThan(start);
      expect(s).toBeLessThanOrEqual(end);
    }
  });
  it('with no overlap starts at the previous end', () => {
    expect(overlapStart('abc def', 0, 3, 0)).toBe(3);
  });
});

describe('whitespace helpers', () => {
  it('agree with \\s', () => {
    for (let c = 0; c < 0x10000; c++) expect(isWhitespace(c), c.toString(16)).toBe(/\s/.test(String.fromCharCode(c)));
  });
  it('skip and trim', () => {
    expect(skipWhitespace('  \n a', 0, 5)).toBe(4);
    expect(skipWhitespace('   ', 0, 3)).toBe(3);
    expect(trimEndAt('ab \n ', 0, 5)).toBe(2);
    expect(trimEndAt('   ', 1, 3)).toBe(1);
  });
});
