/**
 * An OCR line worker: the direction classifier and the recogniser, each on one thread, reading the line images it
 * is sent. onnxruntime-node runs a model on the calling JavaScript thread, so the engine spreads a page's lines
 * over several of these (lines.ts) to use more than one core; on two cores two of them read a drawn dense page's
 * 36 lines in 1.81–2.03 s (CPU 3.5–3.9 s), against 1.87–2.88 s (CPU 3.7–5.6 s) for one session on two intra-op
 * threads. Messages go through `workers/rpc.ts`.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { serveRequests } from '../workers/rpc';
import { openOcrModel } from './graph';
import type { RgbaImage } from './image';
import { readLineImages, type RecognisedText } from './recognise';

/** Load the two models (the first request). */
export interface LineLoadRequest {
  type: 'load';
  classifier: string;
  recognition: string;
  dictionary: string[];
  fuse: boolean;
}

/** Read these line images (already cut to the recogniser's height). */
export interface LineReadRequest {
  type: 'read';
  lines: RgbaImage[];
}

export type LineRequest = LineLoadRequest | LineReadRequest;
export type LineReply = { type: 'loaded' } | { type: 'texts'; texts: RecognisedText[] };

let loaded: { ort: typeof import('onnxruntime-node'); classifier: InferenceSession; recognition: InferenceSession; dictionary: string[] } | null = null;

async function load(request: LineLoadRequest): Promise<LineReply> {
  const ort = await import('onnxruntime-node');
  const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' };
  const open = (file: string) => openOcrModel(ort, file, request.fuse, options);
  const [classifier, recognition] = await Promise.all([open(request.classifier), open(request.recognition)]);
  loaded = { ort, classifier, recognition, dictionary: request.dictionary };
  return { type: 'loaded' };
}

async function read(request: LineReadRequest): Promise<LineReply> {
  if (!loaded) throw new Error('the OCR line worker has no models loaded');
  const { ort, classifier, recognition, dictionary } = loaded;
  return { type: 'texts', texts: await readLineImages(classifier, recognition, ort, request.lines, dictionary) };
}

serveRequests<LineRequest, LineReply>(
  (request) => (request.type === 'load' ? load(request) : read(request)),
  () => [],
  // Closing: release the sessions before the thread ends (cutting ONNX Runtime off mid-run can abort the process).
  async () => {
    await Promise.all([loaded?.classifier.release(), loaded?.recognition.release()]);
    loaded = null;
  },
);
