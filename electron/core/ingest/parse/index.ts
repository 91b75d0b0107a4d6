/**
 * One entry point from a file's bytes to its canonical text and provenance. The file name picks the
 * parser (see kinds.ts); every parser reports failure as a ParseError whose message is shown to the
 * user next to the file.
 */
import type { Heading } from '../../store/page-model';
import { ParseError, type ParsedDocument } from '../types';
import { decodeText, looksLikeText } from './decode';
import { codeHeadings } from './code-outline';
import { parseDocx } from './docx';
import { declaredCharset, htmlToText } from './html';
import { baseName, extensionOf, isNotRead, kindOf } from './kinds';
import { parseMarkdown } from './markdown';
import { parseEpub } from './epub';
import { parseImage } from './image';
import type { PageReader } from '../../ocr/reader';
import { parsePdf } from './pdf';
import { plainHeadings } from './plain-headings';
import { holdsPod, podHeadings } from './pod';
import { rstHeadings } from './rst';
import { parseSheet } from './sheet';
import { parseSlides } from './slides';
import { say } from '../../../../shared/said';

/**
 * True when Sift can read files with this name: by extension (Markdown, plain text, code, HTML,
 * PDF, DOCX, spreadsheets, slides, EPUB) or, without one, well-known names such as README, LICENSE, CHANGELOG and Makefile.
 */
export function isSupported(fileName: string): boolean {
  return kindOf(fileName) !== null;
}

/** A document with every optional part empty, to spread the parser's parts over. */
function blank(kind: ParsedDocument['kind'], text: string): ParsedDocument {
  return { kind, text, title: null, metadata: {}, headings: [], pages: null, language: null, encoding: null };
}

/**
 * A file whose name says nothing about its kind (`README.Debian`, `configure`, `app.conf`): plain text when its
 * content is text, else skipped as not a kind Sift reads.
 */
function unnamedText(fileName: string, bytes: Buffer): ParsedDocument {
  if (isNotRead(fileName)) throw new ParseError('unsupported', say('file.unsupported', { name: fileName }).text);
  if (!looksLikeText(bytes)) throw new ParseError('binary', say('file.notText', { name: baseName(fileName) }).text);
  const { text, encoding } = decodeText(bytes);
  if (isTagsIndex(text)) throw new ParseError('unsupported', say('file.tagsIndex', { name: baseName(fileName) }).text);
  // Perl modules and scripts (`.pm`, `.pl`, `adduser.local`) keep their documentation as POD.
  const titled = holdsPod(text) ? podHeadings(text) : plainHeadings(text);
  return { ...blank('text', text), ...titled, encoding };
}

/**
 * The headings and title of a plain-text file by the conventions its kind is written in: reStructuredText's
 * (`.rst`), POD's (`.pod`, Perl's documentation), else those plain text uses (plain-headings.ts).
 */
function titlesOf(text: string, ext: string | null): { headings: Heading[]; title: string | null } {
  if (ext === 'rst') return rstHeadings(text);
  if (ext === 'pod') return podHeadings(text);
  return plainHeadings(text, ext === 'org');
}

/** A line of a ctags index: a name, a file and where the name is in it, separated by tabs. */
const TAGS_LINE = /^[^\t]+\t[^\t]+\t\S/;

/**
 * True for an index of names that ctags writes (`tags`, beside code or Vim's help): a `!_TAG_` header, or
 * nothing but name-tab-file-tab-address lines in its first 50. Indexed, every name in it would be found a
 * second time, in a line that only says which file defines it.
 */
function isTagsIndex(text: string): boolean {
  const head = text.slice(0, 16_384);
  const lines = head.split('\n');
  if (head.length < text.length) lines.pop(); // cut off
  const first = lines.slice(0, 50).filter((l) => l.trim() !== '');
  if (first[0]?.startsWith('!_TAG_')) return true;
  return first.length >= 10 && first.every((l) => TAGS_LINE.test(l));
}

/** Code at least this long (UTF-16 units) is checked for being machine-made (see machineMadeAverage). */
export const MACHINE_MADE_MIN_LENGTH = 20_000;
/** Average line length above which such code is machine-made. */
export const MACHINE_MADE_LINE_AVERAGE = 200;

/**
 * The average line length of code a program wrote for programs, not people, or null for code people read:
 * a minified bundle (`highlight.min.js`, a Vite asset), a documentation generator's search index (mdBook's
 * `searchindex-*.js`, Sphinx's `searchindex.js`: every page of the manual again, as one line), generated
 * tables (pygments' `unistring.py`). Such a file is tens of thousands of characters in lines of hundreds or
 * thousands. Indexed, it filled results with passages cut from one endless line (a third of the chunks of
 * the Rust manuals were their search indexes). Of 7,512 code files of 20,000 characters or more on this machine
 * (node_modules, Python's and Perl's libraries, Debian's and Rust's documentation), 146 average over 200
 * characters a line, every one of them minified, generated or data; hand-written code averages 30 to 60.
 */
export function machineMadeAverage(text: string): number | null {
  if (text.length < MACHINE_MADE_MIN_LENGTH) return null;
  let lines = text.endsWith('\n') ? 0 : 1; // the last line, when no line end closes it
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  const average = text.length / lines;
  return average > MACHINE_MADE_LINE_AVERAGE ? Math.round(average) : null;
}

/** How files are parsed. */
export interface ParseOptions {
  /** Reads images and PDF pages without a text layer (OCR); null or absent: OCR is off, images are skipped
   *  ("OCR is off") and scanned PDFs have no text. */
  ocr?: PageReader | null;
}

/**
 * Parse one file's bytes into canonical text + provenance. `fileName` may be a bare name or a path;
 * only its last segment is used. A name of no known kind is read as plain text when its bytes are
 * text. Throws ParseError: `binary` (also for such a name whose bytes are not text), `empty`, `corrupt` or `unreadable` with a human reason.
 */
export async function parseFile(fileName: string, bytes: Buffer, options: ParseOptions = {}): Promise<ParsedDocument> {
  const ocr = options.ocr ?? null;
  const found = kindOf(fileName);
  if (!found) return unnamedText(fileName, bytes);
  switch (found.kind) {
    case 'markdown': {
      const { text, encoding } = decodeText(bytes);
      const parsed = parseMarkdown(text);
      if (parsed.text.trim() === '') throw new ParseError('empty', say('file.onlyFrontMatter').text);
      return { ...blank('markdown', parsed.text), ...parsed, encoding };
    }
    case 'text': {
      const { text, encoding } = decodeText(bytes);
      return { ...blank('text', text), ...titlesOf(text, extensionOf(fileName)), encoding };
    }
    case 'code': {
      const { text, encoding } = decodeText(bytes);
      const average = machineMadeAverage(text);
      if (average !== null) throw new ParseError('unsupported', say('file.machineMade', { name: baseName(fileName), average: average.toLocaleString('en-US') }).text);
      return { ...blank('code', text), headings: codeHeadings(text, found.language), language: found.language, encoding };
    }
    case 'html': {
      const { text: html, encoding } = decodeText(bytes, declaredCharset(bytes));
      const parsed = htmlToText(html);
      if (parsed.text.trim() === '') throw new ParseError('empty', say('file.noText').text);
      return { ...blank('html', parsed.text), ...parsed, encoding };
    }
    case 'pdf':
      return { ...blank('pdf', ''), ...(await parsePdf(bytes, ocr)) };
    case 'image':
      return { ...blank('image', ''), ...(await parseImage(bytes, extensionOf(fileName) ?? '', ocr)) };
    case 'docx':
      return { ...blank('docx', ''), ...(await parseDocx(bytes)) };
    case 'sheet':
      return { ...blank('sheet', ''), ...(await parseSheet(bytes, extensionOf(fileName) ?? '')) };
    case 'slides':
      return { ...blank('slides', ''), ...(await parseSlides(bytes, extensionOf(fileName) === 'odp' ? 'odp' : 'pptx')) };
    case 'epub':
      return { ...blank('epub', ''), ...(await parseEpub(bytes)) };
  }
}
