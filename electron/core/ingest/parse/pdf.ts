/**
 * PDF → text, one span per page, through pdf.js (the legacy build, which runs on plain Node). In
 * Node pdf.js always runs its "worker" in the calling thread (there is no `disableWorker` option in
 * v5 any more; it is implied), so parsing a PDF is ordinary async work on the ingest thread.
 */
import type { PageSpan } from '../../store/page-model';
import { ocrInfoOf, type PageReader, type PlacedOcrPage } from '../../ocr/reader';
import { ParseError, type ParsedDocument } from '../types';
import { say } from '../../../../shared/said';
import { paintsImage, renderPagePixels, type PdfDocument } from './pdf-render';
import { ocrError } from './image';
import { outlineHeadings } from './pdf-outline';
import { joinBrokenWords } from './pdf-hyphens';
import { withoutRunningLines } from './pdf-running';

/** What a PDF contributes to a ParsedDocument. */
export type ParsedPdf = Pick<ParsedDocument, 'text' | 'title' | 'pages' | 'ocr' | 'headings'>;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/**
 * A page whose text layer holds fewer letters than this (spaces not counted) and that paints an image is read by
 * OCR: a scan, or a scan with a stray stamp of text ("Scanned by …", a page number). 16: more than a page number
 * and a date, less than one line of real text.
 */
export const MIN_TEXT_LAYER_CHARS = 16;

let loading: Promise<PdfJs> | null = null;

/** pdf.js is large (~2 MB of code); it is loaded on the first PDF, not when Sift starts. */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}

/**
 * Extract the text layer of a PDF: each page's text items joined (a line break where pdf.js marks
 * the end of a line), pages joined by a blank line, `pages` giving each page's span. With a `reader`, a
 * page without a text layer (see MIN_TEXT_LAYER_CHARS) is rendered and read by OCR instead, its lines kept in
 * `ocr`; the lines printed on every page (running heads, page numbers) left out of the text layer (pdf-running.ts),
 * and words it broke at a line's end joined (pdf-hyphens.ts). Title from the document information `Title`;
 * headings from its outline (pdf-outline.ts). Throws ParseError `corrupt` when pdf.js cannot read the file,
 * `unreadable` when it is password-protected, `empty` when no page has text (a scan, without OCR).
 */
export async function parsePdf(bytes: Uint8Array, reader: PageReader | null = null): Promise<ParsedPdf> {
  const pdfjs = await loadPdfJs();
  const doc = await openPdf(pdfjs, bytes);
  try {
    const { text, pages, ocr } = await pageTexts(pdfjs, doc, reader);
    if (text.trim() === '') throw new ParseError('empty', say(reader ? 'file.ocrNoText' : 'file.pdfNoText').text);
    const headings = await outlineHeadings(doc, text, pages);
    return { text, pages, headings, title: await infoTitle(doc), ocr: ocr.length && reader ? ocrInfoOf(reader.modelId, ocr) : null };
  } catch (err) {
    const ocr = ocrError(err);
    if (ocr !== err) throw ocr;
    throw err instanceof ParseError || (err as Error).name === 'OcrCancelled' ? err : readError(err);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** Open a PDF with pdf.js; ParseError `corrupt` or `unreadable` (password) when it cannot be. */
export async function openPdf(pdfjs: PdfJs, bytes: Uint8Array): Promise<PdfDocument> {
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js takes ownership of (and may detach) the buffer it is given
    isEvalSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS, // otherwise every font substitution is a warning on stdout
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw readError(err);
  }
}

async function pageTexts(
  pdfjs: PdfJs, doc: PdfDocument, reader: PageReader | null,
): Promise<{ text: string; pages: PageSpan[]; ocr: PlacedOcrPage[] }> {
  // Each page's text layer, or what OCR read on a page without one (null in `layers`).
  const layers: (string | null)[] = [];
  const read = new Map<number, PlacedOcrPage['result']>();
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number);
    const content = await page.getTextContent();
    let pageText = '';
    for (const item of content.items) {
      if (!('str' in item)) continue; // marked-content markers carry no text
      pageText += item.str;
      if (item.hasEOL) pageText += '\n';
    }
    const clean = pageText.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
    let result: PlacedOcrPage['result'] | null = null;
    if (reader && clean.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARS && (await paintsImage(pdfjs, page))) {
      result = await reader.read(number, doc.numPages, () => renderPagePixels(page));
    }
    page.cleanup();
    if (result && result.text !== '') read.set(number, result);
    layers.push(result && result.text !== '' ? null : clean);
  }
  // Running heads and page numbers out of the text layer (pdf-running.ts), words broken at a line's end joined
  // (pdf-hyphens.ts); OCR's pages stay as read.
  const texts = joinBrokenWords(withoutRunningLines(layers));
  let text = '';
  const pages: PageSpan[] = [];
  const ocr: PlacedOcrPage[] = [];
  texts.forEach((layer, i) => {
    const number = i + 1;
    if (number > 1) text += '\n\n';
    const result = read.get(number);
    if (result) ocr.push({ page: number, offset: text.length, result });
    const clean = result ? result.text : layer!;
    pages.push({ start: text.length, end: text.length + clean.length, page: number });
    text += clean;
  });
  return { text, pages, ocr };
}

async function infoTitle(doc: PdfDocument): Promise<string | null> {
  try {
    const { info } = await doc.getMetadata();
    const title = (info as Record<string, unknown> | null)?.Title;
    return typeof title === 'string' && title.trim() ? title.trim() : null;
  } catch {
    return null; // a broken information dictionary does not make the text unreadable
  }
}

function readError(err: unknown): ParseError {
  const name = (err as { name?: unknown } | null)?.name;
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException') {
    return new ParseError('unreadable', say('file.pdfPassword').text);
  }
  return new ParseError('corrupt', say('file.pdfUnreadable', { detail: message }).text);
}
