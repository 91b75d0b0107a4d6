/**
 * Line recognition with PP-OCRv4's CRNN model, and the direction classifier for lines read with doubt. Each
 * line box is cut from the page, scaled to 48 px high (its width kept in proportion), normalised to [-1, 1];
 * lines are run in batches of similar width, padded to the widest. The model gives per time step a probability
 * for every character of the dictionary (0 = CTC blank); greedy CTC decoding keeps each step's most likely
 * character, dropping blanks and repeats. A line's confidence is the mean of the kept steps' probabilities.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { cropResize, rotateHalfTurn, toPlanar, type Box, type RgbaImage } from './image';

const HALF = [0.5, 0.5, 0.5];
const REC_HEIGHT = 48;
/** Widest line image given to the recogniser (px); wider lines are squeezed. 48 × 50: about 80 characters. */
const REC_MAX_WIDTH = 2400;
const BATCH = 8;
const CLS_WIDTH = 192;
/** Direction-classifier probability needed to turn a line over (PaddleOCR's 0.9). */
const CLS_THRESHOLD = 0.9;

type Ort = typeof import('onnxruntime-node');

/** One recognised line: its text and the mean probability of its characters (0–1). */
export interface RecognisedText {
  text: string;
  confidence: number;
}

/** A line image cut from the page at the recogniser's height. */
function lineImage(page: RgbaImage, box: Box, height: number, maxWidth: number): RgbaImage {
  const ratio = (box[2] - box[0]) / Math.max(1, box[3] - box[1]);
  const width = Math.max(8, Math.min(maxWidth, Math.ceil(height * ratio)));
  return cropResize(page, box, width, height);
}

/**
 * Which of `lines` the direction classifier (0° vs 180°) calls upside down with probability ≥ 0.9, in batches.
 * Its call is only a hint: it squeezes a long line into 192 px and then misjudges some level lines, so the
 * engine keeps a turned reading only when it is the more confident one.
 */
export async function turnedLines(session: InferenceSession, ort: Ort, lines: RgbaImage[]): Promise<boolean[]> {
  const out = lines.map(() => false);
  for (let start = 0; start < lines.length; start += BATCH * 4) {
    const batch = lines.slice(start, start + BATCH * 4);
    const plane = REC_HEIGHT * CLS_WIDTH;
    const input = new Float32Array(batch.length * 3 * plane);
    batch.forEach((line, i) => {
      const small = cropResize(line, [0, 0, line.width, line.height], Math.min(CLS_WIDTH, line.width), REC_HEIGHT);
      toPlanar(small, HALF, HALF, input, i * 3 * plane, CLS_WIDTH, plane);
    });
    const feeds = { [session.inputNames[0]!]: new ort.Tensor('float32', input, [batch.length, 3, REC_HEIGHT, CLS_WIDTH]) };
    const probs = (await session.run(feeds))[session.outputNames[0]!]!.data as Float32Array;
    batch.forEach((_, i) => (out[start + i] = probs[i * 2 + 1]! >= CLS_THRESHOLD));
  }
  return out;
}

/** A reading below this confidence is tried again turned over (an upside-down line the classifier missed). */
const RETRY_BELOW = 0.85;
/**
 * A line the classifier calls turned is tried again only when its level reading is below this. Level lines read
 * at 0.98–1.00 and upside-down ones at 0.0–0.63 (drawn A4 pages, 24 px, both languages); the classifier called
 * 6 of 36 level Chinese lines turned, and reading each again cost a sixth more recognition for nothing.
 */
const TURNED_RETRY_BELOW = 0.95;

/**
 * Read line images: each is recognised level; the direction classifier is asked only about the lines read below
 * TURNED_RETRY_BELOW, the only ones its call can change. Those it calls turned, and those read below RETRY_BELOW
 * whatever it says (an upside-down line it missed), are read again rotated by 180°, and the more confident reading
 * is kept. On a clean page almost every line reads above 0.95, so the classifier hardly runs (it cost 2–5 % of a
 * dense page's line time when it ran on every line first; the readings kept are the same).
 */
export async function readLineImages(
  classifier: InferenceSession, recognition: InferenceSession, ort: Ort, lines: RgbaImage[], dictionary: readonly string[],
): Promise<RecognisedText[]> {
  const texts = await recogniseLines(recognition, ort, lines, dictionary);
  const doubtful = texts.flatMap((t, i) => (t.confidence < TURNED_RETRY_BELOW ? [i] : []));
  if (doubtful.length === 0) return texts;
  const turned = await turnedLines(classifier, ort, doubtful.map((i) => lines[i]!));
  const flipped = doubtful.filter((i, k) => turned[k] || texts[i]!.confidence < RETRY_BELOW);
  if (flipped.length === 0) return texts;
  const again = await recogniseLines(recognition, ort, flipped.map((i) => rotateHalfTurn(lines[i]!)), dictionary);
  again.forEach((reading, k) => {
    const i = flipped[k]!;
    if (reading.confidence > texts[i]!.confidence) texts[i] = reading;
  });
  return texts;
}

/** The line images for `boxes` of `page`, at the recogniser's height. */
export function cutLines(page: RgbaImage, boxes: Box[]): RgbaImage[] {
  return boxes.map((box) => lineImage(page, box, REC_HEIGHT, REC_MAX_WIDTH));
}

/** Recognise each line image; results in the order given. `dictionary[i]` is the character of class i + 1. */
export async function recogniseLines(
  session: InferenceSession, ort: Ort, lines: RgbaImage[], dictionary: readonly string[],
): Promise<RecognisedText[]> {
  const order = lines.map((_, i) => i).sort((a, b) => lines[a]!.width - lines[b]!.width);
  const results: RecognisedText[] = new Array(lines.length);
  // Short lines (≤ 480 px at 48 px high: a word or two) run in batches of nearly one width (within 10 %); longer
  // lines one a run: on a dense page (38 lines of ~1,200 px) batches of 8 took 1.3–2.5× as long as one line a run.
  for (let start = 0; start < order.length; ) {
    let stop = start + 1;
    const first = lines[order[start]!]!.width;
    while (first <= 480 && stop < order.length && stop - start < BATCH && lines[order[stop]!]!.width <= first * 1.1) stop++;
    const indexes = order.slice(start, stop);
    start = stop;
    const width = Math.max(...indexes.map((i) => lines[i]!.width));
    const plane = REC_HEIGHT * width;
    const input = new Float32Array(indexes.length * 3 * plane);
    indexes.forEach((line, k) => toPlanar(lines[line]!, HALF, HALF, input, k * 3 * plane, width, plane));
    const feeds = { [session.inputNames[0]!]: new ort.Tensor('float32', input, [indexes.length, 3, REC_HEIGHT, width]) };
    const output = (await session.run(feeds))[session.outputNames[0]!]!;
    const [, steps, classes] = output.dims as [number, number, number];
    const probs = output.data as Float32Array;
    indexes.forEach((line, k) => {
      results[line] = ctcGreedy(probs.subarray(k * steps * classes, (k + 1) * steps * classes), steps, classes, dictionary);
    });
  }
  return results;
}

/**
 * Greedy CTC decoding of one line: per step the most likely class; blanks (class 0) and a class repeating the
 * step before are dropped. Confidence = mean probability of the kept steps (0 for an empty line).
 */
export function ctcGreedy(
  probs: Float32Array, steps: number, classes: number, dictionary: readonly string[],
): RecognisedText {
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestProb = -Infinity;
    const row = t * classes;
    for (let c = 0; c < classes; c++) {
      const p = probs[row + c]!;
      if (p > bestProb) {
        bestProb = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += dictionary[best - 1] ?? '';
      sum += bestProb;
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept ? sum / kept : 0 };
}
