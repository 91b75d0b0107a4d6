/**
 * Rendering a PDF page to pixels (pdf.js drawing onto @napi-rs/canvas, the canvas package pdf.js itself uses on
 * Node, with prebuilt binaries): for OCR of pages without a text layer, and for the page image a citation of a
 * scanned page shows. 150 dpi: an A4 page is 1240 × 1754 px, enough for 9-pt print.
 */
import type { RgbaImage } from '../../ocr/image';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
/** An open pdf.js document. */
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** Resolution pages are rendered at for OCR and shown at, dots per inch. */
export const RENDER_DPI = 150;
/** The largest page rendered, in pixels (a poster-sized page is scaled down to this). */
const MAX_RENDER_PIXELS = 40_000_000;

/** True when the page paints at least one image (a scan is one picture per page). */
export async function paintsImage(pdfjs: PdfJs, page: PdfPage): Promise<boolean> {
  const ops = await page.getOperatorList();
  const images = new Set<number>([pdfjs.OPS.paintImageXObject, pdfjs.OPS.paintInlineImageXObject, pdfjs.OPS.paintImageXObjectRepeat]);
  return ops.fnArray.some((fn) => images.has(fn));
}

/** Draw one page at `dpi` (default RENDER_DPI) on a white background; returns the canvas. */
export async function renderPage(page: PdfPage, dpi = RENDER_DPI): Promise<import('@napi-rs/canvas').Canvas> {
  const { createCanvas } = await import('@napi-rs/canvas');
  let viewport = page.getViewport({ scale: dpi / 72 });
  const pixels = viewport.width * viewport.height;
  if (pixels > MAX_RENDER_PIXELS) viewport = page.getViewport({ scale: (dpi / 72) * Math.sqrt(MAX_RENDER_PIXELS / pixels) });
  const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // pdf.js types its canvas as the DOM's; @napi-rs/canvas implements the part it draws with
  const task = page.render({ canvasContext: context as never, canvas: canvas as never, viewport });
  await task.promise;
  return canvas;
}

/** One page's pixels at `dpi`, for OCR. */
export async function renderPagePixels(page: PdfPage, dpi = RENDER_DPI): Promise<RgbaImage> {
  const canvas = await renderPage(page, dpi);
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  return { data: data.data, width: canvas.width, height: canvas.height };
}
