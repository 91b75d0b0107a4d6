/**
 * Text detection with PP-OCRv4's DB model (differentiable binarisation): the page image scaled so its sides are
 * multiples of 32, normalised with ImageNet's mean and deviation, gives a map of "text here" probabilities; the
 * map thresholded, its connected regions are the cores of text lines, each grown back ("unclipped") by the margin
 * DB shrank it by. Boxes are axis-aligned: Sift reads scans and screenshots, whose lines run level.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { cropResize, toPlanar, type Box, type RgbaImage } from './image';

/** How detection is tuned; the defaults are PaddleOCR's. */
export interface DetectOptions {
  /** Longest side the image is scaled to before detection (px). Default 1600: 10-pt text of a 150-dpi A4 page
   *  stays about 15 px high; PaddleOCR's 960 loses small print. Range 640–4000; time grows with its square. */
  maxSide?: number;
  /** Probability above which a map pixel is text. Default 0.3 (range 0.1–0.6). */
  threshold?: number;
  /** Mean probability a region needs to be kept as a line. Default 0.6 (range 0.3–0.9). */
  boxThreshold?: number;
  /** How far a region is grown back: margin = area × ratio / perimeter. Default 1.6 (range 1.2–2.5). */
  unclipRatio?: number;
  /**
   * Rows of the scaled image the model reads at a time (a multiple of 32; 0 reads the image whole). Default
   * DETECT_STRIP_ROWS. The model's working memory grows with the area it reads: a whole page at 1600 px held
   * ~400 MB more than one at 800. A band reads STRIP_OVERLAP rows more on each side than it keeps, so a line
   * across two bands is seen whole by one of them.
   */
  stripRows?: number;
}

/** Rows of the scaled image read at a time (see DetectOptions.stripRows). */
export const DETECT_STRIP_ROWS = 640;
/** Rows a band reads beyond those it keeps, on each side that has a neighbour. */
export const STRIP_OVERLAP = 64;

/** Throws unless `rows` can be DetectOptions.stripRows: 0, or a multiple of 32 above twice the overlap. */
export function checkStripRows(rows: number): void {
  if (rows === 0 || (Number.isInteger(rows) && rows % 32 === 0 && rows > 2 * STRIP_OVERLAP)) return;
  throw new Error(`OCR: stripRows must be 0 or a multiple of 32 above ${2 * STRIP_OVERLAP} (got ${rows})`);
}

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/**
 * The model's "text here" map of `image` (its sides multiples of 32), read in bands of `strip` rows when the
 * image is taller than that (see DetectOptions.stripRows): each band but the first keeps its rows from
 * STRIP_OVERLAP below its top, each but the last up to STRIP_OVERLAP above its bottom, and the last band ends
 * at the image's bottom. Every band has the same shape, so the model's buffers are reused.
 */
async function probabilities(
  session: InferenceSession, ort: typeof import('onnxruntime-node'), image: RgbaImage, strip: number,
): Promise<Float32Array> {
  const { width, height } = image;
  const rowsRead = strip <= 0 || height <= strip ? height : strip;
  // One input for every band: each run fills all of it, and the model has read it before the next band is drawn.
  const input = new Float32Array(3 * width * rowsRead);
  const run = async (top: number, rows: number) => {
    const band = { width, height: rows, data: image.data.subarray(top * width * 4, (top + rows) * width * 4) };
    toPlanar(band, MEAN, STD, input, 0, width, width * rows);
    const feeds = { [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, rows, width]) };
    return (await session.run(feeds))[session.outputNames[0]!]!.data as Float32Array;
  };
  if (rowsRead === height) return run(0, height);
  const map = new Float32Array(width * height);
  for (let top = 0, last = false; !last; top += strip - 2 * STRIP_OVERLAP) {
    if (top + strip >= height) {
      top = height - strip;
      last = true;
    }
    const band = await run(top, strip);
    const from = top === 0 ? 0 : STRIP_OVERLAP;
    const to = last ? strip : strip - STRIP_OVERLAP;
    map.set(band.subarray(from * width, to * width), (top + from) * width);
  }
  return map;
}

/** The boxes of the text lines in `image`, in its own pixel coordinates, with each region's mean probability. */
export async function detectLines(
  session: InferenceSession, ort: typeof import('onnxruntime-node'), image: RgbaImage, options: DetectOptions = {},
): Promise<Array<{ box: Box; score: number }>> {
  const { maxSide = 1600, threshold = 0.3, boxThreshold = 0.6, unclipRatio = 1.6 } = options;
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const scaled = cropResize(image, [0, 0, image.width, image.height], width, height);
  const map = await probabilities(session, ort, scaled, options.stripRows ?? DETECT_STRIP_ROWS);
  const regions = connectedRegions(map, width, height, threshold);
  const sx = image.width / width;
  const sy = image.height / height;
  const lines: Array<{ box: Box; score: number }> = [];
  for (const region of regions) {
    const w = region.right - region.left;
    const h = region.bottom - region.top;
    const score = region.sum / region.count;
    if (Math.min(w, h) < 3 || score < boxThreshold) continue;
    const margin = (w * h * unclipRatio) / (2 * (w + h));
    const box: Box = [
      clamp(Math.floor((region.left - margin) * sx), 0, image.width),
      clamp(Math.floor((region.top - margin) * sy), 0, image.height),
      clamp(Math.ceil((region.right + margin) * sx), 0, image.width),
      clamp(Math.ceil((region.bottom + margin) * sy), 0, image.height),
    ];
    if (box[2] - box[0] >= 4 && box[3] - box[1] >= 4) lines.push({ box, score });
  }
  return lines;
}

interface Region { left: number; top: number; right: number; bottom: number; count: number; sum: number }

/**
 * The 4-connected regions of pixels above `threshold` in a `width` × `height` probability map, each with its
 * bounding rectangle (right/bottom exclusive), pixel count and summed probability. An explicit stack, not
 * recursion: a region can hold a whole line's worth of pixels.
 */
export function connectedRegions(map: Float32Array, width: number, height: number, threshold: number): Region[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: Region[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || map[start]! <= threshold) continue;
    const region: Region = { left: width, top: height, right: 0, bottom: 0, count: 0, sum: 0 };
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      region.count++;
      region.sum += map[p]!;
      if (x < region.left) region.left = x;
      if (x + 1 > region.right) region.right = x + 1;
      if (y < region.top) region.top = y;
      if (y + 1 > region.bottom) region.bottom = y + 1;
      const next = [x > 0 ? p - 1 : -1, x + 1 < width ? p + 1 : -1, y > 0 ? p - width : -1, y + 1 < height ? p + width : -1];
      for (const q of next) {
        if (q >= 0 && !seen[q] && map[q]! > threshold) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    regions.push(region);
  }
  return regions;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
