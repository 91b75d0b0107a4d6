/**
 * The image of one page, rendered from the source file when asked (`pages.image`), never stored: a page of a PDF
 * at the resolution OCR read it (150 dpi), an image file upright as OCR saw it (EXIF orientation applied), both
 * as PNG. So the OCR boxes of `pages.get` fall on it as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import type { PageImage } from '../../../shared/models';
import { decodeImage } from '../ocr/image';
import { extensionOf } from './parse/kinds';
import { loadPdfJs, openPdf } from './parse/pdf';
import { renderPage } from './parse/pdf-render';

/** Largest source file read for a page image (bytes): the ingest cap's default. */
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;

/** Page `page` of the page at `pagePath` as a PNG data URL; `not_found` for no such page, `invalid_argument` for one with no image. */
export async function pageImage(db: Database.Database, pagePath: string, page: number): Promise<PageImage> {
  const row = db
    .prepare(`SELECT p.kind, d.folder, d.rel_path AS relPath FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.path = ?`)
    .get(pagePath) as { kind: string; folder: string; relPath: string } | undefined;
  if (!row) throw new SiftError('not_found', `no page ${pagePath} in this knowledge base`);
  if (row.kind !== 'pdf' && row.kind !== 'image') throw new SiftError('invalid_argument', `${pagePath} is not a PDF or an image; it has no page images`);
  const file = path.join(row.folder, row.relPath);
  let bytes: Buffer;
  try {
    if (fs.statSync(file).size > MAX_SOURCE_BYTES) throw new Error('the file is too large to show');
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new SiftError('not_found', `the source file ${file} cannot be read (${(err as Error).message})`);
  }
  return row.kind === 'pdf' ? pdfPageImage(bytes, page, pagePath) : imageFileImage(bytes, extensionOf(row.relPath) ?? '', page, pagePath);
}

async function pdfPageImage(bytes: Buffer, page: number, pagePath: string): Promise<PageImage> {
  const pdfjs = await loadPdfJs();
  let doc;
  try {
    doc = await openPdf(pdfjs, bytes);
  } catch (err) {
    throw new SiftError('invalid_argument', (err as Error).message);
  }
  try {
    if (page > doc.numPages) throw new SiftError('not_found', `${pagePath} has ${doc.numPages} page(s), not ${page}`);
    const canvas = await renderPage(await doc.getPage(page));
    return { page, width: canvas.width, height: canvas.height, dataUrl: dataUrl(await canvas.encode('png')) };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

async function imageFileImage(bytes: Buffer, ext: string, page: number, pagePath: string): Promise<PageImage> {
  if (page !== 1) throw new SiftError('not_found', `${pagePath} is an image: it has one page`);
  let image;
  try {
    image = await decodeImage(bytes, ext);
  } catch (err) {
    throw new SiftError('invalid_argument', (err as Error).message);
  }
  const { default: sharp } = await import('sharp');
  const png = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 4 },
  }).png().toBuffer();
  return { page, width: image.width, height: image.height, dataUrl: dataUrl(png) };
}

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}
