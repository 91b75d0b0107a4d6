/** Slides and chapters of a page read back from its spans and headings, as parse/slides.ts and epub.ts write them. */
import { describe, expect, it } from 'vitest';
import { NOTES_HEADING } from '../../../shared/slide-parts';
import { headingPathAt, partAt, partBlocks } from './page-parts';

/** A page of parts, each a list of [heading level or 0 for a paragraph, text]; returns text, headings, spans. */
function write(parts: [number, string][][]) {
  let text = '';
  const headings: { start: number; end: number; level: number; text: string }[] = [];
  const spans: { start: number; end: number; page: number }[] = [];
  parts.forEach((blocks, i) => {
    let partStart = -1;
    for (const [level, s] of blocks) {
      if (text) text += '\n\n';
      const start = text.length;
      if (partStart < 0) partStart = start;
      text += s;
      if (level > 0) headings.push({ start, end: text.length, level, text: s });
    }
    spans.push({ start: partStart, end: text.length, page: i + 1 });
  });
  return { text, headings, spans };
}

describe('partBlocks', () => {
  const deck = write([
    [[1, '季度回顾'], [0, 'Revenue up 12%\n华东增长最快'], [2, NOTES_HEADING], [0, 'Mention the East region first']],
    [[1, 'Slide 2'], [0, 'No notes here']],
  ]);

  it('finds each slide and where its speaker notes begin', () => {
    const parts = partBlocks(deck.headings, deck.spans, true);
    expect(parts.map((p) => p.number)).toEqual([1, 2]);
    const notes = parts[0]!.notes!;
    expect(deck.text.slice(notes.heading.start, notes.heading.end)).toBe(NOTES_HEADING);
    expect(deck.text.slice(notes.heading.end, parts[0]!.end).trim()).toBe('Mention the East region first');
    expect(parts[1]!.notes).toBeNull();
  });

  it('an e-book has no speaker notes, even under a heading of that name', () => {
    const book = write([[[1, 'One'], [2, NOTES_HEADING], [0, 'a chapter that names its section so']]]);
    expect(partBlocks(book.headings, book.spans, false)[0]!.notes).toBeNull();
  });

  it('finds the part of an offset, and none between parts', () => {
    const parts = partBlocks(deck.headings, deck.spans, true);
    expect(partAt(parts, deck.text.indexOf('No notes'))?.number).toBe(2);
    expect(partAt(parts, deck.text.indexOf('华东'))?.number).toBe(1);
    expect(partAt(parts, parts[0]!.end)).toBeNull();
  });
});

describe('headingPathAt', () => {
  const book = write([
    [[1, '第一章 起点'], [2, 'Setting out'], [0, 'They left at dawn.'], [2, 'The river'], [3, 'Crossing'], [0, 'Cold water.']],
    [[1, 'Chapter 2'], [0, 'A new day.']],
  ]);

  it('gives the headings in force, a later heading of the same level replacing the earlier one', () => {
    expect(headingPathAt(book.headings, book.text.indexOf('They left'))).toEqual(['第一章 起点', 'Setting out']);
    expect(headingPathAt(book.headings, book.text.indexOf('Cold water'))).toEqual(['第一章 起点', 'The river', 'Crossing']);
    expect(headingPathAt(book.headings, book.text.indexOf('A new day'))).toEqual(['Chapter 2']);
  });

  it('counts only headings from the part’s start', () => {
    const second = book.spans[1]!;
    expect(headingPathAt(book.headings, second.start - 3, second.start)).toEqual([]);
    expect(headingPathAt(book.headings, book.text.indexOf('Cold water'), book.spans[0]!.start)).toHaveLength(3);
  });
});
