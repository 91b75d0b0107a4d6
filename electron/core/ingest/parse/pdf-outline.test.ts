/**
 * A PDF's outline becomes its headings (pdf-outline.ts): each bookmark's title where its page (or the next) holds
 * it, with the section number the page puts before it, in the outline's order and levels; a bookmark whose title
 * the text lacks, or that points at no page, is left out. Sections and passages then follow them.
 */
import { describe, expect, it } from 'vitest';
import { buildSections, chunkSections } from '../../text/chunk';
import { buildPdf } from './fixtures';
import { parseFile } from './index';
import { findTitle } from './pdf-outline';

const filler = (topic: string) => Array.from({ length: 12 }, (_, i) => `${topic} sentence ${i + 1} says a little more about it.`);

const MANUAL = buildPdf(
  [
    ['Gateway Manual', '1 Introduction', 'The gateway forwards requests to the pool.', ...filler('Introduction')],
    ['2 Configuration', 'Settings live in gateway.toml.', '2.1 Retry policy', 'Retries back off exponentially up to max_retries.', ...filler('Retry')],
    ['The end of the retry section.', '2.2 Timeouts', 'A request times out after request_timeout seconds.', ...filler('Timeout')],
  ],
  {
    outline: [
      { title: '1 Introduction', page: 0 },
      {
        title: '2 Configuration',
        page: 1,
        items: [
          { title: 'Retry policy', page: 1 },
          // Points at the foot of page 2; the title stands at the top of page 3.
          { title: 'Timeouts', page: 1 },
          // No page holds it: left out, not guessed.
          { title: 'Logging', page: 2 },
        ],
      },
      { title: 'Index', page: 7 },
    ],
  },
);

describe('PDF outline headings', () => {
  it('reads the bookmarks that the pages hold as headings, with their levels and section numbers', async () => {
    const doc = await parseFile('manual.pdf', MANUAL);
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, '1 Introduction', '1 Introduction'],
      [1, '2 Configuration', '2 Configuration'],
      [2, 'Retry policy', '2.1 Retry policy'],
      [2, 'Timeouts', '2.2 Timeouts'],
    ]);
    // Each heading stands on the page it is on.
    const pageOf = (offset: number) => doc.pages!.find((p) => p.start <= offset && offset <= p.end)!.page;
    expect(doc.headings.map((h) => pageOf(h.start))).toEqual([1, 2, 2, 3]);
  });

  it('cuts the PDF at them, so a passage says which section it is from', async () => {
    const doc = await parseFile('manual.pdf', MANUAL);
    const sections = buildSections(doc.text, doc.headings);
    const chunks = chunkSections(doc.text, sections);
    const retry = chunks.find((c) => c.text.includes('max_retries'))!;
    expect(sections[retry.sectionIndex]!.headingPath).toEqual(['2 Configuration', 'Retry policy']);
    expect(retry.text).not.toContain('request_timeout');
    const timeout = chunks.find((c) => c.text.includes('request_timeout'))!;
    expect(sections[timeout.sectionIndex]!.headingPath).toEqual(['2 Configuration', 'Timeouts']);
  });

  it('gives a PDF without an outline no headings', async () => {
    const doc = await parseFile('plain.pdf', buildPdf([['1 Introduction', 'Text.']]));
    expect(doc.headings).toEqual([]);
  });

  it('finds a title across a line break and in another case, but not outside its page', () => {
    const text = 'Intro text.\n3.4 Storing the MIME type\nusing Extended Attributes\nBody.';
    const at = findTitle(text, 'Storing the MIME type using extended attributes', 0, text.length)!;
    expect(text.slice(at.start, at.end)).toBe('3.4 Storing the MIME type\nusing Extended Attributes');
    expect(findTitle(text, 'Body', 0, 20)).toBeNull();
    // A title run into its paragraph starts at the title, not at its line.
    expect(findTitle('See Retry policy below.', 'Retry policy', 0, 23)).toEqual({ start: 4, end: 16 });
  });
});
