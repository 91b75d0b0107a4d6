import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import type { Heading } from '../store/page-model';
import { buildSections, chunkSections, contentHash, hasWords, headingPathAt, type ChunkOptions, type ChunkSpan, type SectionSpan } from './chunk';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Headings of Markdown `#` lines, as the Markdown parser reports them. */
function markdownHeadings(text: string): Heading[] {
  return [...text.matchAll(/^(#{1,6}) (.*)$/gm)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    level: m[1]!.length,
    text: m[2]!,
  }));
}

const isBlank = (s: string): boolean => s.trim() === '';

/**
 * Why consecutive chunks of a section may fail to overlap, or null: a whitespace run longer than
 * half a chunk lies between them, or a wordless piece was left out.
 */
function gapReason(gap: string, chunkSize: number): string | null {
  if ((gap.match(/\s+/g) ?? []).some((run) => run.length > chunkSize / 2)) return 'whitespace run';
  return gap.trim() !== '' ? 'wordless piece' : null;
}

/** Every property the brief promises, for one text. Returns the chunks for fixture-specific checks. */
function chunkAndCheck(text: string, headings: Heading[], options: ChunkOptions = {}): { sections: SectionSpan[]; chunks: ChunkSpan[] } {
  const chunkSize = options.chunkSize ?? 500;
  const overlap = options.overlap ?? 100;
  const sections = buildSections(text, headings, options);
  const chunks = chunkSections(text, sections, options);

  // Sections: in order, indexed, non-empty, covering the text except whitespace-only gaps.
  let pos = 0;
  sections.forEach((s, i) => {
    expect(s.index).toBe(i);
    expect(s.end).toBeGreaterThan(s.start);
    expect(isBlank(text.slice(pos, s.start))).toBe(true);
    expect(isBlank(text.slice(s.start, s.end))).toBe(false);
    pos = s.end;
  });
  expect(isBlank(text.slice(pos))).toBe(true);

  chunks.forEach((c, i) => {
    const section = sections[c.sectionIndex]!;
    expect(c.index).toBe(i);
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.text).toBe(c.text.trim());
    expect(c.hash).toBe(createHash('sha256').update(Buffer.from(c.text, 'utf8')).digest('hex'));
    expect(c.start).toBeGreaterThanOrEqual(section.start);
    expect(c.end).toBeLessThanOrEqual(section.end);
    expect(c.text.length).toBeLessThanOrEqual(chunkSize * 1.5);
    expect(c.text).not.toMatch(LONE_SURROGATE);
  });

  // Chunks of a section: in order, overlapping (or touching when overlap is 0), covering its words.
  const bySection = new Map<number, ChunkSpan[]>();
  for (const c of chunks) bySection.set(c.sectionIndex, [...(bySection.get(c.sectionIndex) ?? []), c]);
  for (const section of sections) {
    const own = bySection.get(section.index) ?? [];
    expect(own.length).toBeGreaterThan(0);
    // What no chunk holds has no words: whitespace, or markup such as a table rule.
    expect(hasWords(text, section.start, own[0]!.start)).toBe(false);
    expect(hasWords(text, own[own.length - 1]!.end, section.end)).toBe(false);
    for (let i = 1; i < own.length; i++) {
      const [prev, next] = [own[i - 1]!, own[i]!];
      expect(next.start).toBeGreaterThan(prev.start);
      expect(next.end).toBeGreaterThan(prev.end);
      if (next.start >= prev.end) expect(hasWords(text, prev.end, next.start)).toBe(false);
      if (overlap > 0 && next.start >= prev.end) expect(gapReason(text.slice(prev.end, next.start), chunkSize)).not.toBeNull();
    }
  }
  return { sections, chunks };
}

const guide = [
  'Preamble before any heading. It has two sentences.',
  '',
  '# Guide',
  '',
  'The guide explains how the client talks to the gateway. '.repeat(12),
  '',
  '## Retry policy',
  '',
  'Retries happen three times! Each wait doubles? The last one gives up. '.repeat(15),
  '',
  '### Backoff',
  '',
  'Backoff starts at one second.',
  '',
  '## Timeouts',
  '',
  'A request times out after thirty seconds.\nA stream times out after five minutes of silence.',
  '',
  '# Appendix',
  'Short.',
].join('\n');

const chinese = '连接超时后，客户端会自动重试三次。每次等待的时间都会加倍！如果仍然失败怎么办？请检查网络配置；必要时联系管理员。'.repeat(40);

describe('buildSections and chunkSections', () => {
  it('chunk Markdown with nested headings', () => {
    const { sections, chunks } = chunkAndCheck(guide, markdownHeadings(guide), { chunkSize: 200, overlap: 50 });
    expect(sections.map((s) => s.headingPath)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Retry policy'],
      ['Guide', 'Retry policy', 'Backoff'],
      ['Guide', 'Timeouts'],
      ['Appendix'],
    ]);
    expect(guide.slice(sections[2]!.start).startsWith('## Retry policy')).toBe(true);
    // English prose is full of sentence ends, so every chunk that is not a section's last ends at one.
    const lastOfSection = new Set(sections.map((s) => chunks.filter((c) => c.sectionIndex === s.index).pop()!.index));
    for (const c of chunks) if (!lastOfSection.has(c.index)) expect(c.text).toMatch(/[.!?]$/);
  });

  it('chunk Chinese prose at 。！？；', () => {
    const { chunks } = chunkAndCheck(chinese, [], { chunkSize: 200, overlap: 40 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks.slice(0, -1)) expect(c.text).toMatch(/[。！？；]$/);
  });

  it('never split emoji, skin tones or ZWJ families', () => {
    const spaced = '🙂👍🏽 家庭 👨‍👩‍👧 '.repeat(200);
    const solid = '🙂👍🏽家庭👨‍👩‍👧e\u0301'.repeat(300);
    for (const text of [spaced, solid]) {
      const { chunks } = chunkAndCheck(text, [], { chunkSize: 200, overlap: 50 });
      const boundaries = new Set([...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((g) => g.index));
      boundaries.add(text.length);
      for (const c of chunks) {
        expect(boundaries.has(c.start), `start ${c.start}`).toBe(true);
        expect(boundaries.has(c.end), `end ${c.end}`).toBe(true);
      }
    }
  });

  it('chunk a 5 MB single line into about ten thousand chunks', () => {
    const text = 'The gateway retried the request after a short delay and it worked. '.repeat(75_000).slice(0, 5_000_000);
    const started = performance.now();
    const { chunks } = chunkAndCheck(text, []);
    // Logged, not asserted: a quadratic regression shows up as the test timing out.
    console.info(`5 MB single line: ${chunks.length} chunks in ${Math.round(performance.now() - started)} ms (with checks)`);
    expect(chunks.length).toBeGreaterThan(10_000);
    expect(chunks.length).toBeLessThan(15_000);
  });

  it('chunk a 5 MB line with no spaces at all (hard cuts)', () => {
    const { chunks } = chunkAndCheck('x'.repeat(5_000_000), []);
    expect(chunks.length).toBeGreaterThan(10_000);
    expect(chunks.length).toBeLessThan(15_000);
  });

  it('chunk text with no sentence ends at spaces and line breaks', () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i}${i % 17 === 0 ? '\n' : ' '}`).join('');
    const { chunks } = chunkAndCheck(words, [], { chunkSize: 200, overlap: 50 });
    // Every cut falls between words.
    for (const c of chunks) {
      expect(c.start === 0 || /\s/.test(words[c.start - 1]!)).toBe(true);
      expect(c.end === words.length || /\s/.test(words[c.end]!)).toBe(true);
    }
  });

  it('give nothing for empty or whitespace-only text', () => {
    for (const text of ['', '   \n\n\t  ']) {
      expect(buildSections(text, [])).toEqual([]);
      expect(chunkSections(text, buildSections(text, []))).toEqual([]);
    }
  });

  it('make one chunk of a short section, trimmed', () => {
    const { chunks } = chunkAndCheck('\n\n  Just one line.  \n', []);
    expect(chunks.map((c) => c.text)).toEqual(['Just one line.']);
  });

  it('step over a whitespace run longer than a chunk instead of creeping towards it', () => {
    // zod-to-json-schema's README pads its options table with 600+ spaces a cell: chunks ended at the
    // same word again and again, each start halfway closer ("| Effect", "fect", "ct", "t").
    const pad = ' '.repeat(650);
    const table = `| Option${pad}| Effect${pad}|\n| **name**?: string${pad}| The schema name, used in the definitions object.${pad}|`;
    const text = `### Options object\n\nThe following options are available:\n\n${table}\n`;
    const { chunks } = chunkAndCheck(text, markdownHeadings(text));
    expect(chunks.every((c) => c.text.length >= 6)).toBe(true);
    expect(chunks.filter((c) => c.text.endsWith('Effect'))).toHaveLength(1);
    expect(chunks.some((c) => c.text.includes('The schema name'))).toBe(true);
  });

  it('leave out pieces with no words once markup is set aside: a table rule, a row of logos', () => {
    const rule = `| ${'-'.repeat(300)} | ${'-'.repeat(300)} |`;
    const logos = Array.from({ length: 8 }, (_, n) => `<a href="https://opencollective.com/x/sponsor/${n}/website"><img src="https://opencollective.com/x/sponsor/${n}/avatar.svg"></a>`).join('\n');
    const text = `## Options\n\n| Option | Effect |\n${rule}\n| **cache** | Keeps parsed files in memory. |\n\n${logos}\n\nThanks to every sponsor.`;
    const { chunks } = chunkAndCheck(text, markdownHeadings(text), { chunkSize: 200, overlap: 40 });
    expect(chunks.every((c) => hasWords(c.text, 0, c.text.length))).toBe(true);
    expect(chunks.some((c) => /^[|\s-]+$/.test(c.text))).toBe(false);
    expect(chunks.some((c) => c.text.includes('Keeps parsed files'))).toBe(true);
    expect(chunks[chunks.length - 1]!.text).toContain('Thanks to every sponsor.');
  });

  it('touch without overlap when overlap is 0', () => {
    chunkAndCheck(guide, markdownHeadings(guide), { chunkSize: 200, overlap: 0 });
  });

  it('split a long section at paragraph ends into near-equal parts with the same heading path', () => {
    const paragraph = 'A sentence about retries and gateways that goes on for a while. '.repeat(5).trim();
    const text = `# Long\n\n${Array.from({ length: 40 }, () => paragraph).join('\n\n')}`;
    const { sections } = chunkAndCheck(text, markdownHeadings(text), { maxSection: 4000 });
    expect(sections.length).toBe(Math.ceil(text.length / 4000));
    for (const s of sections) {
      expect(s.headingPath).toEqual(['Long']);
      expect(s.end - s.start).toBeLessThanOrEqual(4000);
      expect(s.end - s.start).toBeGreaterThan(1000);
      if (s.end < text.length) expect(text.slice(s.end - 2, s.end)).toBe('\n\n');
    }
  });

  it('drop a whitespace-only preamble and accept headings out of order', () => {
    const text = '\n\n# B\nbody b\n# A\nbody a';
    const headings = markdownHeadings(text).reverse();
    const { sections } = chunkAndCheck(text, headings);
    expect(sections.map((s) => [s.start, s.headingPath])).toEqual([
      [2, ['B']],
      [text.indexOf('# A'), ['A']],
    ]);
  });

  it('refuse options that would break chunking', () => {
    const bad: ChunkOptions[] = [{ chunkSize: 0 }, { chunkSize: 1.5 }, { overlap: -1 }, { chunkSize: 200, overlap: 101 }, { maxSection: 5 }];
    for (const options of bad) {
      expect(() => chunkSections('text', buildSections('text', []), options)).toThrow(SiftError);
    }
    expect(() => buildSections('text', [], { maxSection: 0 })).toThrow(/maxSection/);
  });
});

describe('contentHash', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('sha256(%j)', (text, hex) => {
    expect(contentHash(text)).toBe(hex);
  });
  it('hashes UTF-8, not UTF-16', () => {
    expect(contentHash('超时🙂')).toBe(createHash('sha256').update(Buffer.from('超时🙂', 'utf8')).digest('hex'));
  });
});

describe('headingPathAt', () => {
  const h = (start: number, level: number, text: string): Heading => ({ start, end: start + 5, level, text });
  const headings = [h(10, 1, 'Guide'), h(50, 2, 'Retry policy'), h(90, 4, 'Deep'), h(120, 3, 'Jitter'), h(150, 2, 'Timeouts'), h(200, 1, 'Appendix')];
  const cases: [number, string[]][] = [
    [0, []],
    [9, []],
    [10, ['Guide']],
    [49, ['Guide']],
    [50, ['Guide', 'Retry policy']],
    [95, ['Guide', 'Retry policy', 'Deep']],
    [130, ['Guide', 'Retry policy', 'Jitter']],
    [160, ['Guide', 'Timeouts']],
    [200, ['Appendix']],
    [10_000, ['Appendix']],
  ];
  it.each(cases)('at %d', (offset, path) => {
    expect(headingPathAt(headings, offset)).toEqual(path);
  });
  it('is empty without headings', () => {
    expect(headingPathAt([], 5)).toEqual([]);
  });
});
