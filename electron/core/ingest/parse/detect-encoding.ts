/**
 * Guessing how a text file's bytes are encoded when they are not UTF-8. Sift's users keep Chinese
 * notes written by older Windows and Mac tools (GBK/GB18030, Big5) next to UTF-16 exports, so the
 * guess leans towards Chinese: chardet is trusted when it is confident, and for short Chinese files
 * (where chardet is not) the byte pairs themselves decide between GB18030 and Big5.
 */
import { analyse } from 'chardet';
import iconv from 'iconv-lite';

/** A byte-order mark found at the start of a file. */
export interface ByteOrderMark {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  length: number;
}

/** The byte-order mark at the start of `bytes`, or null when there is none. */
export function byteOrderMark(bytes: Uint8Array): ByteOrderMark | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * `utf-16le`/`utf-16be` when BOM-less bytes look like UTF-16: text with any Latin letters, digits or
 * spaces has a NUL in one byte of most code units and almost never in the other. Null otherwise.
 * Looks at the first 8 KB only.
 */
export function sniffUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const sample = bytes.subarray(0, 8192);
  const units = Math.floor(sample.length / 2);
  if (units < 2) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) zeroEven++;
    if (sample[i + 1] === 0) zeroOdd++;
  }
  // 30 % leaves room for CJK-heavy text (no NULs) mixed with some ASCII; 5 % tolerates U+0100–U+01FF etc.
  if (zeroOdd / units >= 0.3 && zeroEven / units <= 0.05) return 'utf-16le';
  if (zeroEven / units >= 0.3 && zeroOdd / units <= 0.05) return 'utf-16be';
  return null;
}

/**
 * The iconv-lite name for a charset label from a document (`<meta charset>`), or null when iconv-lite
 * does not know it. Labels that browsers treat as supersets are widened the same way, so a page that
 * says `iso-8859-1` but uses curly quotes still decodes as its author saw it.
 */
export function normaliseCharsetLabel(label: string): string | null {
  const name = label.trim().toLowerCase();
  if (!name) return null;
  if (['iso-8859-1', 'latin1', 'us-ascii', 'ascii', 'iso8859-1', 'l1'].includes(name)) return 'windows-1252';
  if (['gb2312', 'gbk', 'x-gbk', 'cp936', 'gb_2312-80'].includes(name)) return 'gb18030';
  if (name === 'utf8') return 'utf-8';
  return iconv.encodingExists(name) ? name : null;
}

const MULTIBYTE_CJK = new Set(['GB18030', 'Big5', 'Shift_JIS', 'EUC-JP', 'EUC-KR']);

/** chardet's confidence (0–100) from which its multi-byte verdict is taken without a second look. */
const TRUSTED_CONFIDENCE = 50;

/** Share of double-byte pairs that must fall in a Chinese encoding's common-character rows. */
const CHINESE_PAIR_SHARE = 0.8;

/**
 * For the high-byte pairs in `bytes`, the share that fall where common text in each encoding lives:
 * GB2312 punctuation and hanzi rows (lead A1–A3, B0–F7; trail A1–FE) and Big5 punctuation and
 * frequent hanzi (lead A1–C6; trail 40–7E, A1–FE). Big5 trails below 0x7F never occur in GB2312
 * text, and GB leads C7–F7 are outside Big5's frequent block, which is what tells them apart.
 */
export function chinesePairShares(bytes: Uint8Array): { gb: number; big5: number } {
  let pairs = 0;
  let gb = 0;
  let big5 = 0;
  for (let i = 0; i + 1 < bytes.length; i++) {
    const lead = bytes[i]!;
    if (lead < 0x80) continue;
    const trail = bytes[i + 1]!;
    pairs++;
    if ((inRange(lead, 0xa1, 0xa3) || inRange(lead, 0xb0, 0xf7)) && inRange(trail, 0xa1, 0xfe)) gb++;
    if (inRange(lead, 0xa1, 0xc6) && (inRange(trail, 0x40, 0x7e) || inRange(trail, 0xa1, 0xfe))) big5++;
    i++;
  }
  return pairs === 0 ? { gb: 0, big5: 0 } : { gb: gb / pairs, big5: big5 / pairs };
}

function inRange(value: number, low: number, high: number): boolean {
  return value >= low && value <= high;
}

/** chardet's names → the names Sift records (lower-case; Latin-1 widened to windows-1252). */
function recordedName(chardetName: string): string {
  const name = chardetName.toLowerCase();
  return name === 'iso-8859-1' ? 'windows-1252' : name;
}

/**
 * The most likely legacy encoding of bytes that are not valid UTF-8 (looks at the first 64 KB).
 * Order: chardet's multi-byte verdict when confident; else GB18030/Big5 when the byte pairs are
 * clearly Chinese (GB18030 on a tie: it is the more common of the two); else chardet's best guess;
 * else windows-1252, which decodes any byte.
 */
export function guessLegacyEncoding(bytes: Uint8Array): string {
  const sample = bytes.subarray(0, 65536);
  const matches = analyse(sample).filter(
    (m) => m.name !== 'UTF-8' && m.name !== 'ASCII' && iconv.encodingExists(m.name),
  );
  const top = matches[0];
  if (top && MULTIBYTE_CJK.has(top.name) && top.confidence >= TRUSTED_CONFIDENCE) return recordedName(top.name);
  const shares = chinesePairShares(sample);
  if (Math.max(shares.gb, shares.big5) >= CHINESE_PAIR_SHARE) return shares.gb >= shares.big5 ? 'gb18030' : 'big5';
  return top ? recordedName(top.name) : 'windows-1252';
}
