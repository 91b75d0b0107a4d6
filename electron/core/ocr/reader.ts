/**
 * Reading the pages of one file with OCR, as a parser asks for them: a cached result when these bytes were read
 * by this model before (keyed by content hash, model id and page), else the engine on the page image, which is
 * only then made (a PDF page rendered, an image decoded). Every page is announced (progress, seconds), and a
 * cancelled run stops between pages; pages done before are in the cache for the next run.
 */
import type { OcrInfo, OcrPageInfo } from '../store/page-model';
import { LOW_OCR_CONFIDENCE } from '../store/page-model';
import type { OcrEngine, OcrPage } from './engine';
import type { RgbaImage } from './image';
import { say } from '../../../shared/said';

/** OCR results kept by content hash + model (the `ocr_cache` table; see store/migrations/kb/010-ocr.ts). */
export interface OcrCache {
  get(page: number): OcrPage | null;
  put(page: number, result: OcrPage, seconds: number): void;
}

/** What a parser reads pages with. */
export interface PageReader {
  readonly modelId: string;
  /** Page `page` of `pages` (1-based); `image` is called only when the page is not cached. */
  read(page: number, pages: number, image: () => Promise<RgbaImage>): Promise<OcrPage>;
}

/** One page read: where it is in the run, how long it took (0 when cached). */
export interface OcrProgress {
  page: number;
  pages: number;
  seconds: number;
  cached: boolean;
}

/** The engine failed on a page (its models could not load, or a run failed); the message says why. */
export class OcrFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OcrFailed';
  }
}

/** Thrown between pages when the run was cancelled; the file is indexed again by the next run. */
export class OcrCancelled extends Error {
  constructor() {
    super('OCR was cancelled; the file is read again (from the pages already done) at the next indexing');
    this.name = 'OcrCancelled';
  }
}

/** A page reader over an engine (loaded on the first page that is not cached) and a cache. */
export function pageReader(
  modelId: string,
  engine: () => Promise<OcrEngine>,
  cache: OcrCache,
  hooks: { onPage?: (progress: OcrProgress) => void; cancelled?: () => boolean } = {},
): PageReader {
  return {
    modelId,
    async read(page, pages, image) {
      if (hooks.cancelled?.()) throw new OcrCancelled();
      const known = cache.get(page);
      if (known) {
        hooks.onPage?.({ page, pages, seconds: 0, cached: true });
        return known;
      }
      const pixels = await image(); // an error of its own (an image that cannot be decoded) says why
      const started = performance.now();
      let result: OcrPage;
      try {
        result = await (await engine()).read(pixels);
      } catch (err) {
        throw new OcrFailed(say('file.ocrFailed', { detail: err instanceof Error ? err.message : String(err) }).text);
      }
      const seconds = (performance.now() - started) / 1000;
      cache.put(page, result, seconds);
      hooks.onPage?.({ page, pages, seconds, cached: false });
      return result;
    },
  };
}

/** A page of a document's OCR: the page number, where its text starts in the document's text, what OCR read. */
export interface PlacedOcrPage {
  page: number;
  offset: number;
  result: OcrPage;
}

/**
 * The page model's OcrInfo of a document: each page's lines with spans moved into the document's text, the
 * mean confidence over the pages' characters, and whether it is low (below LOW_OCR_CONFIDENCE).
 */
export function ocrInfoOf(modelId: string, pages: readonly PlacedOcrPage[]): OcrInfo {
  let weighted = 0;
  let characters = 0;
  const out: OcrPageInfo[] = pages.map(({ page, offset, result }) => {
    const chars = result.lines.reduce((n, l) => n + (l.end - l.start), 0);
    weighted += result.confidence * chars;
    characters += chars;
    return {
      page,
      width: result.width,
      height: result.height,
      confidence: result.confidence,
      lines: result.lines.map((l) => ({ start: l.start + offset, end: l.end + offset, box: l.box, confidence: l.confidence })),
    };
  });
  const confidence = characters ? Math.round((weighted / characters) * 1e4) / 1e4 : 0;
  return { model: modelId, confidence, lowConfidence: confidence < LOW_OCR_CONFIDENCE, pages: out };
}
