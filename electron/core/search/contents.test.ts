/**
 * Contents and index passages go after the passages that explain: on libtasn1's manual (a real PDF),
 * "asn1_read_value" quoted the back-of-book index ("asn1_read_value . . . . 16") before the function's
 * own reference entry.
 */
import { describe, expect, it } from 'vitest';
import { contentsLast, isContentsLike } from './contents';
import { keywordKbForTests } from './testing/test-kb';

const leaders = (name: string, page: number): string => `${name} ${'. '.repeat(20)}${page}`;
const INDEX = ['asn1_parser2array', 'asn1_perror', 'asn1_read_value', 'asn1_write_value'].map((n, i) => leaders(n, 8 + i)).join('\n');
const TOC = '## Contents\n\n- [Installation](#installation)\n- [Usage](#usage)\n- [Reading values](#reading-values)\n';

describe('isContentsLike', () => {
  it.each([
    ['a back-of-book index with dot leaders', INDEX, true],
    ['a Markdown list of in-page links under its heading', TOC, true],
    ['numbered in-page links', '1. [One](#one)\n2. [Two](#two)\n3) [Three](#three)', true],
    ['two entries are not enough', leaders('a', 1) + '\n' + leaders('b', 2), false],
    ['prose with a few entries', `${INDEX}\n${'A sentence of prose.\n'.repeat(4)}`, false],
    ['links to other pages are not contents', '- [zod](https://zod.dev)\n- [ajv](https://ajv.js.org)\n- [x](https://x.org)', false],
    ['an ellipsis in prose', 'Wait for it . . . and then . . . . it ends.\nMore text.\nAnd more.', false],
  ])('%s', (_label, text, expected) => {
    expect(isContentsLike(text)).toBe(expected);
  });

  it('moves contents after the rest, keeping each group in order', () => {
    const passages = [{ text: INDEX, n: 1 }, { text: 'prose', n: 2 }, { text: TOC, n: 3 }, { text: 'more prose', n: 4 }];
    expect(contentsLast(passages).map((p) => p.n)).toEqual([2, 4, 1, 3]);
  });
});

const FILES = {
  'manual.txt': [
    'Chapter 4: Function reference',
    '',
    'asn1_read_value: returns the value of one element of the structure. root: pointer to a structure; name: the',
    'name of the element inside the structure that you want to read; ivalue: where the value is written; len: its',
    'length. Returns ASN1_SUCCESS if the value was read, or ASN1_MEM_ERROR if ivalue is too small for it.',
    '',
  ].join('\n'),
  'index.txt': `Index\n\n${INDEX}\n`,
};

const { keyword } = keywordKbForTests('contents', FILES);


describe('search with an index page', () => {
  it('ranks the function reference above the index entry that names it', async () => {
    const result = await keyword('asn1_read_value');
    expect(result.passages.map((p) => p.pagePath)).toEqual(['wiki/manual.txt', 'wiki/index.txt']);
  });

  it('still returns the index when it is all that matches', async () => {
    const result = await keyword('asn1_perror');
    expect(result.passages.map((p) => p.pagePath)).toEqual(['wiki/index.txt']);
  });
});
