/**
 * The lines a PDF prints on every page (its name, a chapter's, the page number) are left out of its text
 * (pdf-running.ts), and nothing else is: numbered titles, a line two pages share, pages OCR read.
 */
import { describe, expect, it } from 'vitest';
import { buildPdf } from './fixtures';
import { parseFile } from './index';
import { withoutRunningLines } from './pdf-running';

const TOPICS = ['routing', 'retries', 'timeouts', 'pools', 'logging', 'metrics', 'limits', 'caches'];
/** Two lines of text that no other page has. */
const body = (page: number) => [`This page explains ${TOPICS[page - 1]} in the gateway,`, `and how ${TOPICS[page - 1]} can be tuned.`];

describe('running heads and page numbers', () => {
  it('leaves out a name on top of every page and the page number below, but not the title opening the first', () => {
    const pages = [1, 2, 3, 4, 5, 6].map((n) => ['Gateway Manual', ...body(n), String(n)].join('\n'));
    const out = withoutRunningLines(pages);
    expect(out[0]).toBe(['Gateway Manual', ...body(1)].join('\n'));
    for (let n = 2; n <= 6; n++) expect(out[n - 1]).toBe(body(n).join('\n'));
  });

  it("leaves out a chapter's head that carries the page number, numbered from after the front matter", () => {
    // Texinfo: two unnumbered pages, then "Chapter 1: Setup 1", "Chapter 1: Setup 2", "Chapter 2: Usage 3", …
    const heads = ['Chapter 1: Setup 1', 'Chapter 1: Setup 2', 'Chapter 2: Usage 3', 'Chapter 2: Usage 4', 'Chapter 2: Usage 5'];
    const pages = [['Title page', 'by Someone'].join('\n'), ['Contents', '1 Setup', '2 Usage'].join('\n'), ...heads.map((h, k) => [h, ...body(k + 3)].join('\n'))];
    const out = withoutRunningLines(pages);
    expect(out.slice(0, 2)).toEqual(pages.slice(0, 2));
    heads.forEach((_, k) => expect(out[k + 2]).toBe(body(k + 3).join('\n')));
  });

  it('keeps numbered titles that follow the pages, a line only two pages share, short documents and OCR pages', () => {
    const slides = ['1 Introduction', '2 Goals', '3 Design', '4 Results'].map((t, k) => [t, ...body(k + 1)].join('\n'));
    expect(withoutRunningLines(slides)).toEqual(slides);
    const two = ['Draft', 'Draft', 'Final', 'Notes', 'Other', 'More'].map((t, k) => [t, ...body(k + 1)].join('\n'));
    expect(withoutRunningLines(two)).toEqual(two);
    const short = ['Name', 'Name'].map((t, k) => [t, ...body(k + 1)].join('\n'));
    expect(withoutRunningLines(short)).toEqual(short);
    const withOcr = [null, ...[2, 3, 4, 5].map((n) => ['Gateway Manual', ...body(n)].join('\n'))];
    expect(withoutRunningLines(withOcr)).toEqual([null, ...[2, 3, 4, 5].map((n) => body(n).join('\n'))]);
  });

  it('leaves them out of a parsed PDF, so a passage across a page break reads on', async () => {
    const pdf = buildPdf([1, 2, 3, 4].map((n) => ['Shared Config Spec', `The ${TOPICS[n]} section starts here and`, `ends with ${TOPICS[n]} advice.`, String(n)]));
    const doc = await parseFile('spec.pdf', pdf);
    expect(doc.text.match(/Shared Config Spec/g)).toHaveLength(1);
    expect(doc.text).not.toMatch(/^\d$/m);
    expect(doc.text.split('\n\n')[2]).toBe('The pools section starts here and\nends with pools advice.');
    // Page spans still cover each page's own text.
    expect(doc.pages!.map((p) => doc.text.slice(p.start, p.end).split('\n')[0])).toEqual([
      'Shared Config Spec', 'The timeouts section starts here and', 'The pools section starts here and', 'The logging section starts here and',
    ]);
  });
});
