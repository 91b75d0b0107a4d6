/**
 * E-books (EPUB 2 and 3) → text, a section per chapter in reading order: the spine's documents,
 * each read by the HTML path (html.ts), so the book's own headings give the heading path. A chapter
 * that does not open with a heading gets its table-of-contents label (nav or NCX) as one. Each
 * chapter is a numbered span, so a passage says "chapter N" and its heading path.
 */
import { ParseError, type ParsedDocument } from '../types';
import { htmlToText } from './html';
import { PartsWriter } from './parts-writer';
import { all, first, parseXml, textOf } from './xml';
import { openZip, resolveEntry, type ZipReader } from './zip';
import { say } from '../../../../shared/said';

/** What an e-book contributes to a ParsedDocument. */
export type ParsedEpub = Pick<ParsedDocument, 'text' | 'title' | 'headings' | 'pages' | 'metadata'>;

const EPUB = say('what.epub');

/** Encryption an EPUB may list without DRM: the two font-obfuscation schemes (IDPF, Adobe). */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/** The package: where the OPF is, its manifest (id → entry path, media type, properties) and spine. */
interface Package {
  opf: string;
  items: Map<string, { path: string; type: string; properties: string }>;
  spine: string[];
  tocId: string | null;
  title: string | null;
  creator: string | null;
}

/**
 * Parse an EPUB. Throws ParseError: `unreadable` for DRM, `corrupt` for a broken package, `too_wide`
 * when it would unpack past the bound, `empty` when no chapter has text.
 */
export async function parseEpub(bytes: Uint8Array): Promise<ParsedEpub> {
  const zip = await openZip(bytes, EPUB);
  const pkg = await readPackage(zip);
  await refuseDrm(zip, pkg);
  const labels = await tocLabels(zip, pkg);
  const out = new PartsWriter();
  let chapter = 0;
  for (const id of pkg.spine) {
    const item = pkg.items.get(id);
    if (!item || !/x?html/.test(item.type) || item.properties.split(/\s+/).includes('nav')) continue;
    const html = await zip.text(item.path);
    if (html === null) continue;
    const { text, headings } = htmlToText(html);
    if (!text.trim()) continue;
    chapter++;
    out.beginPart();
    const label = labels.get(item.path);
    if (label && headings[0]?.start !== 0) out.heading(1, label);
    out.block(text, headings);
    out.endPart(chapter);
  }
  if (chapter === 0) throw new ParseError('empty', say('file.epubNoText').text);
  const metadata: ParsedEpub['metadata'] = pkg.creator ? { author: pkg.creator } : {};
  return { text: out.text, headings: out.headings, pages: out.parts, title: pkg.title, metadata };
}

function broken(detail: string): ParseError {
  return new ParseError('corrupt', say('file.epubUnreadable', { detail }).text);
}

async function readPackage(zip: ZipReader): Promise<Package> {
  const container = await zip.text('META-INF/container.xml');
  const opf = container ? first(parseXml(container), 'rootfile')?.attribs['full-path'] : undefined;
  if (!opf) throw broken('META-INF/container.xml names no package document');
  const xml = await zip.text(opf);
  if (xml === null) throw broken(`${opf} is missing`);
  const tree = parseXml(xml);
  const items = new Map<string, { path: string; type: string; properties: string }>();
  for (const item of all(tree, 'item')) {
    const { id, href } = item.attribs;
    if (id && href) items.set(id, { path: resolveEntry(opf, href), type: item.attribs['media-type'] ?? '', properties: item.attribs.properties ?? '' });
  }
  const spineElement = first(tree, 'spine');
  const spine = all(tree, 'itemref').map((r) => r.attribs.idref ?? '');
  const text = (name: string) => {
    const element = first(tree, name);
    return element ? textOf(element).replace(/\s+/g, ' ').trim() || null : null;
  };
  return { opf, items, spine, tocId: spineElement?.attribs.toc ?? null, title: text('dc:title'), creator: text('dc:creator') };
}

/** DRM encrypts the content documents (font obfuscation is not DRM and leaves the text readable). */
async function refuseDrm(zip: ZipReader, pkg: Package): Promise<void> {
  const xml = await zip.text('META-INF/encryption.xml');
  if (xml === null) return;
  const content = new Set([...pkg.items.values()].filter((i) => /x?html/.test(i.type)).map((i) => i.path));
  for (const data of all(parseXml(xml), 'EncryptedData')) {
    const algorithm = first(data, 'EncryptionMethod')?.attribs.Algorithm ?? '';
    const uri = first(data, 'CipherReference')?.attribs.URI ?? '';
    if (!FONT_OBFUSCATION.has(algorithm) && content.has(resolveEntry('', uri))) {
      throw new ParseError('unreadable', say('file.epubDrm').text);
    }
  }
}

/** Entry path → its first table-of-contents label: from the EPUB 3 nav document, else the EPUB 2 NCX. */
async function tocLabels(zip: ZipReader, pkg: Package): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const add = (from: string, href: string | undefined, label: string) => {
    const clean = label.replace(/\s+/g, ' ').trim();
    if (!href || !clean) return;
    const target = resolveEntry(from, href);
    if (!labels.has(target)) labels.set(target, clean);
  };
  const nav = [...pkg.items.values()].find((i) => i.properties.split(/\s+/).includes('nav'));
  const navXml = nav ? await zip.text(nav.path) : null;
  if (nav && navXml) {
    const tree = parseXml(navXml);
    const toc = all(tree, 'nav').find((n) => n.attribs['epub:type'] === 'toc') ?? first(tree, 'nav');
    for (const a of toc ? all(toc, 'a') : []) add(nav.path, a.attribs.href, textOf(a));
    if (labels.size > 0) return labels;
  }
  const ncx = (pkg.tocId ? pkg.items.get(pkg.tocId) : undefined) ?? [...pkg.items.values()].find((i) => i.type === 'application/x-dtbncx+xml');
  const ncxXml = ncx ? await zip.text(ncx.path) : null;
  if (ncx && ncxXml) {
    for (const point of all(parseXml(ncxXml), 'navPoint')) {
      const label = first(point, 'text');
      add(ncx.path, first(point, 'content')?.attribs.src, label ? textOf(label) : '');
    }
  }
  return labels;
}
