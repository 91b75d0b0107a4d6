/**
 * E-books zipped by hand in the test (see fixtures-packages.ts) through the real parser: chapters in spine
 * order (not file or manifest order), the book's headings as the heading path, table-of-contents labels
 * for chapters that open without a heading, each chapter a numbered span; DRM and broken packages refused.
 */
import { describe, expect, it } from 'vitest';
import { buildEpub, type FixtureChapter } from './fixtures-packages';
import { failureOf } from './fixtures';
import { parseFile } from './index';

const failure = (name: string, bytes: Uint8Array) => failureOf(() => parseFile(name, Buffer.from(bytes)));

const BOOK: FixtureChapter[] = [
  { body: '<p><img src="cover.jpg" alt=""/></p>' }, // a cover page: no text, no chapter
  { label: '第一章 出发', body: '<h1>第一章 出发</h1><p>清晨，我们从杭州出发。</p><h2>路线</h2><p>先到绍兴，再去宁波。</p>' },
  { label: 'Chapter 2: The harbour', body: '<p>The harbour was quiet &amp; cold.</p><h2>Boats</h2><p>Twelve boats lay at anchor.</p>' },
];

describe('parseEpub', () => {
  it.each([['EPUB 3 nav', false], ['EPUB 2 NCX', true]])('reads chapters in spine order with their headings (%s)', async (_, ncx) => {
    const doc = await parseFile('旅行笔记.epub', await buildEpub(BOOK, { title: '旅行笔记', ncx }));
    expect(doc.kind).toBe('epub');
    expect(doc.title).toBe('旅行笔记');
    expect(doc.metadata).toEqual({ author: 'Sift tests' });
    expect(doc.text).toBe([
      '第一章 出发', '清晨，我们从杭州出发。', '路线', '先到绍兴，再去宁波。',
      'Chapter 2: The harbour', 'The harbour was quiet & cold.', 'Boats', 'Twelve boats lay at anchor.',
    ].join('\n\n'));
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, '第一章 出发', '第一章 出发'], [2, '路线', '路线'], [1, 'Chapter 2: The harbour', 'Chapter 2: The harbour'], [2, 'Boats', 'Boats'],
    ]);
    expect(doc.pages!.map((p) => [p.page, doc.text.slice(p.start, p.end)])).toEqual([
      [1, '第一章 出发\n\n清晨，我们从杭州出发。\n\n路线\n\n先到绍兴，再去宁波。'],
      [2, 'Chapter 2: The harbour\n\nThe harbour was quiet & cold.\n\nBoats\n\nTwelve boats lay at anchor.'],
    ]);
  });

  it('refuses DRM but not font obfuscation, and names broken packages', async () => {
    expect(await failure('locked.epub', await buildEpub(BOOK, { encrypted: ['OEBPS/text/ch02.xhtml'] }))).toBe(
      'unreadable: the e-book is encrypted (DRM); Sift can read only e-books without DRM',
    );
    expect(await failure('fonts.epub', await buildEpub(BOOK, { encrypted: ['OEBPS/fonts/a.otf'] }))).toBe('parsed');
    const good = await buildEpub(BOOK);
    expect(await failure('half.epub', good.subarray(0, good.length - 30))).toMatch(/^corrupt: the e-book could not be read: /);
    expect(await failure('empty.epub', await buildEpub([{ body: '<p> </p>' }]))).toBe('empty: the e-book has no text');
  });
});
