import { describe, expect, it } from 'vitest';
import { buildPdf, failureOf } from './fixtures';
import { parsePdf } from './pdf';

const failure = (bytes: Uint8Array) => failureOf(() => parsePdf(bytes));

function truncated(bytes: Buffer): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length / 2));
}

describe('parsePdf', () => {
  it('reads each page, keeps line breaks and records page spans', async () => {
    const bytes = buildPdf([['Retry policy (v2)', 'Wait three seconds.'], ['Back-off doubles each time.']], { title: 'Runbook' });
    const doc = await parsePdf(bytes);
    expect(doc.text).toBe('Retry policy (v2)\nWait three seconds.\n\nBack-off doubles each time.');
    expect(doc.title).toBe('Runbook');
    expect(doc.pages).toEqual([
      { start: 0, end: 37, page: 1 },
      { start: 39, end: 66, page: 2 },
    ]);
    expect(doc.pages!.map((p) => doc.text.slice(p.start, p.end))).toEqual([
      'Retry policy (v2)\nWait three seconds.',
      'Back-off doubles each time.',
    ]);
  });

  it('reads the pages of a page tree with intermediate nodes in their order, with the title', async () => {
    const pages = Array.from({ length: 23 }, (_, i) => [`Page ${i + 1} text.`]);
    const doc = await parsePdf(buildPdf(pages, { pagesPerNode: 5, title: 'Tree' }));
    expect(doc.pages!.map((p) => [p.page, doc.text.slice(p.start, p.end)])).toEqual(pages.map((lines, i) => [i + 1, lines[0]]));
    expect(doc.title).toBe('Tree');
  });

  it('keeps a span for a page without text, so page numbers stay right', async () => {
    const doc = await parsePdf(buildPdf([['first'], [], ['third']]));
    expect(doc.text).toBe('first\n\n\n\nthird');
    expect(doc.pages).toEqual([
      { start: 0, end: 5, page: 1 },
      { start: 7, end: 7, page: 2 },
      { start: 9, end: 14, page: 3 },
    ]);
  });

  it('has no title without an information Title, or with a blank one', async () => {
    expect((await parsePdf(buildPdf([['x']]))).title).toBeNull();
    expect((await parsePdf(buildPdf([['x']], { title: '  ' }))).title).toBeNull();
  });

  it('reads every page of a PDF while another, shorter one is open in the same thread', async () => {
    // pdf.js 5.4.624 kept one page count per thread, the last opened document's: a 36-page manual read
    // while a 17-page one was open failed at page 18 with "Invalid page request" (mozilla/pdf.js#20629),
    // as an ingest worker holding two batches does.
    const long = Array.from({ length: 30 }, (_, i) => [`Long page ${i + 1}.`]);
    const shorts = async () => {
      const texts: string[] = [];
      for (let i = 0; i < 10; i++) texts.push((await parsePdf(buildPdf([[`Short ${i}.`]]))).text);
      return texts;
    };
    const [doc, texts] = await Promise.all([parsePdf(buildPdf(long)), shorts()]);
    expect(doc.pages!.map((p) => doc.text.slice(p.start, p.end))).toEqual(long.map((l) => l[0]));
    expect(texts).toEqual(Array.from({ length: 10 }, (_, i) => `Short ${i}.`));
  });

  it('does not take ownership of the caller’s buffer', async () => {
    const bytes = buildPdf([['still here']]);
    await parsePdf(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect((await parsePdf(bytes)).text).toBe('still here');
  });

  it.each([
    ['truncated', () => truncated(buildPdf([['hello'], ['world']])), /^corrupt: the PDF could not be read: .+/],
    ['not a PDF at all', () => Buffer.from('this is not a PDF, just text'), /^corrupt: the PDF could not be read: .+/],
    ['zero bytes', () => Buffer.alloc(0), /^corrupt: the PDF could not be read: .+/],
    ['no text layer', () => buildPdf([[], []]), /^empty: the PDF has no text layer \(scanned\?\)$/],
  ])('refuses a PDF that is %s', async (_label, make, reason) => {
    expect(await failure(make())).toMatch(reason);
  });
});
