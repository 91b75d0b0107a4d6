/**
 * Slide decks zipped by hand in the test (see fixtures-packages.ts) and read through the real parser: a
 * section per slide in deck order, its title, body, tables and speaker notes, each slide a numbered span.
 */
import { describe, expect, it } from 'vitest';
import { buildOdp, buildPptx, type FixtureSlide } from './fixtures-packages';
import { failureOf } from './fixtures';
import { parseFile } from './index';

const failure = (name: string, bytes: Uint8Array) => failureOf(() => parseFile(name, Buffer.from(bytes)));

const DECK: FixtureSlide[] = [
  { title: 'Q3 business review', body: ['Revenue grew 12% in the East', '华东区收入增长 12%'], notes: ['Mention the new 渠道 partners first.'] },
  { body: ['A slide without a title'], table: [['Region', 'Revenue'], ['East', '4.2M']] },
  { title: '下一步计划', body: ['扩大华南团队'] },
];

describe('parseSlides', () => {
  it('reads a pptx: a section per slide in deck order, tables, speaker notes, no slide numbers', async () => {
    const doc = await parseFile('季度回顾.pptx', await buildPptx(DECK, { title: 'Quarterly review' }));
    expect(doc.kind).toBe('slides');
    expect(doc.title).toBe('Quarterly review');
    expect(doc.text).toBe([
      'Q3 business review', 'Revenue grew 12% in the East\n华东区收入增长 12%', 'Speaker notes', 'Mention the new 渠道 partners first.',
      'Slide 2', 'A slide without a title\nRegion · Revenue\nEast · 4.2M',
      '下一步计划', '扩大华南团队',
    ].join('\n\n'));
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, 'Q3 business review', 'Q3 business review'], [2, 'Speaker notes', 'Speaker notes'], [1, 'Slide 2', 'Slide 2'], [1, '下一步计划', '下一步计划'],
    ]);
    expect(doc.pages!.map((p) => [p.page, doc.text.slice(p.start, p.end).split('\n')[0]])).toEqual([
      [1, 'Q3 business review'], [2, 'Slide 2'], [3, '下一步计划'],
    ]);
    expect(doc.pages![0]!.end).toBe(doc.text.indexOf('\n\nSlide 2'));
  });

  it('reads an odp the same way', async () => {
    const doc = await parseFile('review.odp', await buildOdp(DECK));
    expect(doc.text).toBe([
      'Q3 business review', 'Revenue grew 12% in the East\n华东区收入增长 12%', 'Speaker notes', 'Mention the new 渠道 partners first.',
      'Slide 2', 'A slide without a title', '下一步计划', '扩大华南团队',
    ].join('\n\n'));
    expect(doc.title).toBe('Q3 business review');
    expect(doc.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
  });

  it('lists encrypted, damaged and empty decks with their reason', async () => {
    expect(await failure('secret.odp', await buildOdp(DECK, { encrypted: true }))).toBe(
      'unreadable: the slide deck is password-protected; remove the password to index it',
    );
    const cfb = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    expect(await failure('secret.pptx', cfb)).toBe('unreadable: the slide deck is password-protected; remove the password to index it');
    const good = await buildPptx(DECK);
    expect(await failure('half.pptx', good.subarray(0, good.length - 40))).toMatch(/^corrupt: the slide deck could not be read: /);
    expect(await failure('text.pptx', Buffer.from('not a deck'))).toBe('corrupt: the slide deck is damaged: it is not the zip file its name says');
    expect(await failure('blank.pptx', await buildPptx([{}, {}]))).toBe('empty: the slide deck has no text');
  });
});
