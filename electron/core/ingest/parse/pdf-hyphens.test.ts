/**
 * Words a PDF broke at a line's end are whole again in its text (pdf-hyphens.ts), so a search finds them; a
 * compound the document writes with its hyphen keeps it, and names broken before a capital or digit stay as printed.
 */
import { describe, expect, it } from 'vitest';
import { buildPdf } from './fixtures';
import { parseFile } from './index';
import { joinBrokenWords } from './pdf-hyphens';
import { tokenize } from '../../text/tokenize';

describe('words broken at the end of a line', () => {
  it('joins a word justified text broke, keeps a compound the document hyphenates, and leaves names and OCR pages', () => {
    const pages = [
      'The library provides structure manip-\nulation and man-\nagement.\nIt is a well-known library.',
      'A well-\nknown rule: encode as ISO-\n8859-1 or ASN-\nOne.',
      null,
    ];
    expect(joinBrokenWords(pages)).toEqual([
      'The library provides structure manipulation and management.\nIt is a well-known library.',
      'A well-known rule: encode as ISO-\n8859-1 or ASN-\nOne.',
      null,
    ]);
    expect(joinBrokenWords(['no breaks here', null])).toEqual(['no breaks here', null]);
  });

  it('makes a broken word findable in a parsed PDF', async () => {
    const pdf = buildPdf([['Libtasn1 provides Abstract Syntax Notation One and DER manip-', 'ulation for the GNU system.']]);
    const doc = await parseFile('manual.pdf', pdf);
    expect(doc.text).toContain('DER manipulation for the GNU system.');
    expect(tokenize(doc.text)).toContain(tokenize('manipulation')[0]);
  });
});
