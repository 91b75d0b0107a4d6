/**
 * Reading the zip container of slides and e-books (and checking that of spreadsheets) with a bound
 * on memory: the central directory is read first, and a file whose entries would inflate past
 * {@link MAX_UNZIPPED_BYTES} is refused before anything is inflated (a zip bomb, or a deck of
 * 4K videos, costs nothing to list and everything to open).
 */
import JSZip from 'jszip';
import { ParseError } from '../types';
import { all, parseXml } from './xml';
import { say, type Message } from '../../../../shared/said';

/**
 * Most bytes the entries Sift reads from one container may inflate to. Default 256 MB: a 100,000-row
 * sheet's XML is about 30 MB; a zip whose text parts exceed this is refused as too large.
 */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

/** The four bytes every zip file (OOXML, ODF, EPUB) starts with. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The eight bytes of an OLE compound file: what an encrypted OOXML file (and an `.xls`) is. */
export function isCompoundFile(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return bytes.length >= 8 && magic.every((b, i) => bytes[i] === b);
}

/** An opened zip whose entries are read as text, each within the bound. */
export interface ZipReader {
  /** Entry names, in the order of the central directory. */
  names: string[];
  /** The entry's text (UTF-8), or null when there is no such entry. */
  text(name: string): Promise<string | null>;
}

type Entry = JSZip.JSZipObject & { _data?: { uncompressedSize?: number } };

/**
 * Open `bytes` as a zip. `what` names the format in messages (`what.slides`). Throws ParseError:
 * `unreadable` for an encrypted Office file (a compound file where a zip belongs), `corrupt` when it
 * is no zip, `too_wide` when its entries would inflate past the bound.
 */
export async function openZip(bytes: Uint8Array, what: Message): Promise<ZipReader> {
  if (isCompoundFile(bytes)) throw new ParseError('unreadable', say('file.encrypted', { what }).text);
  if (!isZip(bytes)) throw new ParseError('corrupt', say('file.notZip', { what }).text);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (err) {
    throw new ParseError('corrupt', say('file.zipUnreadable', { what, detail: (err as Error).message }).text);
  }
  const entries = Object.values(zip.files) as Entry[];
  const inflated = entries.reduce((sum, e) => sum + (e._data?.uncompressedSize ?? 0), 0);
  if (inflated > MAX_UNZIPPED_BYTES) {
    const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
    throw new ParseError('too_wide', say('file.zipTooLarge', { what, size: mb(inflated), cap: mb(MAX_UNZIPPED_BYTES) }).text);
  }
  return {
    names: entries.filter((e) => !e.dir).map((e) => e.name),
    async text(name) {
      const entry = zip.file(name);
      if (!entry) return null;
      try {
        return await entry.async('string');
      } catch (err) {
        throw new ParseError('corrupt', say('file.zipUnreadable', { what, detail: (err as Error).message }).text);
      }
    },
  };
}

/** `href` (relative, maybe %-encoded, maybe with a #fragment) resolved against the folder of zip entry `base`. */
export function resolveEntry(base: string, href: string): string {
  const clean = decodeURIComponent(href.split('#')[0] ?? '');
  const parts = clean.startsWith('/') ? [] : base.split('/').slice(0, -1);
  for (const part of clean.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * An OOXML part's relationships (`DIR/_rels/NAME.rels`; the package's own, `_rels/.rels`, for `from` ''):
 * relationship id → target entry and type. External targets (web links) are left out.
 */
export async function relationships(zip: ZipReader, from: string): Promise<Map<string, { target: string; type: string }>> {
  const dir = from.split('/').slice(0, -1).join('/');
  const rels = await zip.text(`${dir ? `${dir}/` : ''}_rels/${from.split('/').pop()}.rels`);
  const map = new Map<string, { target: string; type: string }>();
  if (rels === null) return map;
  for (const rel of all(parseXml(rels), 'Relationship')) {
    const { Id: id, Target: target, Type: type = '' } = rel.attribs;
    if (id && target && rel.attribs.TargetMode !== 'External') map.set(id, { target: resolveEntry(from, target), type });
  }
  return map;
}
