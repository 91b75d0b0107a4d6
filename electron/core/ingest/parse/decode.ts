/**
 * Bytes → text for every text-ish kind (plain text, Markdown, code, HTML). Decides the encoding,
 * refuses binary files that merely carry a text extension, and normalises line endings so every
 * offset Sift stores counts `\n` as the only line break.
 */
import iconv from 'iconv-lite';
import { ParseError } from '../types';
import { byteOrderMark, guessLegacyEncoding, normaliseCharsetLabel, sniffUtf16 } from './detect-encoding';
import { say } from '../../../../shared/said';

/** Decoded text and the encoding it was read with. */
export interface DecodedText {
  /** The text, `\r\n`/`\r` turned into `\n`, without a leading BOM. */
  text: string;
  /** The encoding used, lower-case: `utf-8`, `utf-16le`, `gb18030`, `big5`, `windows-1252`… */
  encoding: string;
}

/** How much of the start of a file is checked for binary content. */
const BINARY_SAMPLE = 8192;

/**
 * Share of control characters (other than tab, line breaks, form feed, backspace and escape) in the
 * first 8 K characters above which a file is binary. Real text has none; 5 % leaves room for the odd
 * stray byte in a log while catching binaries that happen to contain no NUL.
 */
const MAX_CONTROL_SHARE = 0.05;

/** `\r\n` and lone `\r` → `\n`; a leading BOM (U+FEFF) dropped. */
export function normaliseNewlines(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Most files have no `\r`; finding none is much cheaper than a regex pass over the whole text.
  return body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
}

/**
 * Decode a text file. Order: a byte-order mark; then the charset the document declares (HTML
 * `<meta charset>`, passed as `declaredCharset`; a declared UTF-8 that is not valid UTF-8 falls
 * through to detection); then BOM-less UTF-16; then strict UTF-8; then a guessed legacy encoding.
 * Throws ParseError `binary` for NUL bytes or many control characters, `empty` for whitespace only.
 */
export function decodeText(bytes: Uint8Array, declaredCharset: string | null = null): DecodedText {
  const { text, encoding } = decodeRaw(bytes, declaredCharset);
  if (controlShare(text) > MAX_CONTROL_SHARE) throw binaryFile();
  const normalised = normaliseNewlines(text);
  // `\S` is exactly what trim() keeps, and the test stops at the first such character instead of copying the text.
  if (!/\S/.test(normalised)) throw new ParseError('empty', 'the file is empty');
  return { text: normalised, encoding };
}

function decodeRaw(bytes: Uint8Array, declaredCharset: string | null): { text: string; encoding: string } {
  const bom = byteOrderMark(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.encoding), encoding: bom.encoding };
  const declared = declaredCharset ? normaliseCharsetLabel(declaredCharset) : null;
  // A page cannot declare UTF-16 for itself (the declaration would be unreadable), so browsers ignore it.
  if (declared && declared !== 'utf-8' && !declared.startsWith('utf-16')) {
    if (bytes.subarray(0, BINARY_SAMPLE).includes(0)) throw binaryFile();
    return { text: decodeWith(bytes, declared), encoding: declared };
  }
  // BOM-less UTF-16 always has NULs in the sample sniffUtf16 reads (the same 8 K), so only those are sniffed.
  if (bytes.subarray(0, BINARY_SAMPLE).includes(0)) {
    const utf16 = sniffUtf16(bytes);
    if (utf16) return { text: decodeWith(bytes, utf16), encoding: utf16 };
    throw binaryFile();
  }
  const utf8 = strictUtf8(bytes);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  const guessed = guessLegacyEncoding(bytes);
  return { text: decodeWith(bytes, guessed), encoding: guessed };
}

/**
 * True when the first bytes of a file (up to 8 K) read as text: what decides whether a file whose name says
 * nothing (`README.Debian`, `configure`) is read as plain text. A UTF-8 character cut at the end of the sample
 * does not count against it.
 */
export function looksLikeText(head: Uint8Array): boolean {
  const sample = head.subarray(0, BINARY_SAMPLE);
  for (let cut = 0; cut <= 3 && cut < sample.length; cut++) {
    const utf8 = strictUtf8(sample.subarray(0, sample.length - cut));
    if (utf8 !== null) return !sample.includes(0) && controlShare(utf8) <= MAX_CONTROL_SHARE;
  }
  try {
    return controlShare(decodeRaw(sample, null).text) <= MAX_CONTROL_SHARE;
  } catch {
    return false; // NUL bytes that are not UTF-16
  }
}

/** One decoder for every file: without `stream`, each decode() starts afresh. */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}

function decodeWith(bytes: Uint8Array, encoding: string): string {
  // stripBOM: false — a BOM was already cut off above; a U+FEFF after that is content.
  return iconv.decode(bytes, encoding, { stripBOM: false });
}

/** Share of characters in the first 8 K that are control characters no text file contains. */
function controlShare(text: string): number {
  const length = Math.min(text.length, BINARY_SAMPLE);
  if (length === 0) return 0;
  let controls = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    const allowed = c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d || c === 0x08 || c === 0x1b;
    if ((c < 0x20 && !allowed) || (c >= 0x7f && c <= 0x9f)) controls++;
  }
  return controls / length;
}

function binaryFile(): ParseError {
  return new ParseError('binary', say('file.binary').text);
}
