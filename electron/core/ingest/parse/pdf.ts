/**
 * PDF → text, one span per page, through pdf.js (the legacy build, which runs on plain Node). In
 * Node pdf.js always runs its "worker" in the calling thread (there is no `disableWorker` option in
 * v5 any more; it is implied), so parsing a PDF is ordinary async work on the ingest thread.
 */
import type { PageSpan } from '../../store/page-model';
import { ParseError, type ParsedDocument } from '../types';
import { say } from '../../../../shared/said';

/** What a PDF contributes to a ParsedDocument. */
export type ParsedPdf = Pick<ParsedDocument, 'text' | 'title' | 'pages'>;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let loading: Promise<PdfJs> | null = null;

/** pdf.js is large (~2 MB of code); it is loaded on the first PDF, not when Sift starts. */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}

/**
 * Extract the text layer of a PDF: each page's text items joined (a line break where pdf.js marks
 * the end of a line), pages joined by a blank line, `pages` giving each page's span. Title from the
 * document information `Title`. Throws ParseError `corrupt` when pdf.js cannot read the file,
 * `unreadable` when it is password-protected, `empty` when no page has text (a scan).
 */
export async function parsePdf(bytes: Uint8Array): Promise<ParsedPdf> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js takes ownership of (and may detach) the buffer it is given
    isEvalSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS, // otherwise every font substitution is a warning on stdout
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw readError(err);
  }
  try {
    const { text, pages } = await pageTexts(doc);
    if (text.trim() === '') throw new ParseError('empty', say('file.pdfNoText').text);
    return { text, pages, title: await infoTitle(doc) };
  } catch (err) {
    throw err instanceof ParseError ? err : readError(err);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

async function pageTexts(doc: PdfDocument): Promise<{ text: string; pages: PageSpan[] }> {
  let text = '';
  const pages: PageSpan[] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    if (number > 1) text += '\n\n';
    const page = await doc.getPage(number);
    const content = await page.getTextContent();
    let pageText = '';
    for (const item of content.items) {
      if (!('str' in item)) continue; // marked-content markers carry no text
      pageText += item.str;
      if (item.hasEOL) pageText += '\n';
    }
    page.cleanup();
    const clean = pageText.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
    pages.push({ start: text.length, end: text.length + clean.length, page: number });
    text += clean;
  }
  return { text, pages };
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
