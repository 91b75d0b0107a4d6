/**
 * An OCR line worker: the direction classifier and the recogniser, each on one thread, reading the line images it
 * is sent. onnxruntime-node runs a model on the calling JavaScript thread, so the engine spreads a page's lines
 * over several of these (lines.ts) to use more than one core; on two cores that read a dense page's 36 lines in
 * 1.07–1.17 s, against 1.22–2.19 s for one session on two intra-op threads, at less CPU. Messages go through
 * `workers/rpc.ts`.
 */
import { readFileSync } from 'node:fs';
import type { InferenceSession } from 'onnxruntime-node';
import { serveRequests } from '../workers/rpc';
import { fuseOcrGraph } from './graph';
import type { RgbaImage } from './image';
import { recogniseOriented, turnedLines, type RecognisedText } from './recognise';

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
  const open = (file: string) =>
    request.fuse ? ort.InferenceSession.create(fuseOcrGraph(readFileSync(file)).bytes, options) : ort.InferenceSession.create(file, options);
  const [classifier, recognition] = await Promise.all([open(request.classifier), open(request.recognition)]);
  loaded = { ort, classifier, recognition, dictionary: request.dictionary };
  return { type: 'loaded' };
}

async function read(request: LineReadRequest): Promise<LineReply> {
  if (!loaded) throw new Error('the OCR line worker has no models loaded');
  const { ort, classifier, recognition, dictionary } = loaded;
  const turned = await turnedLines(classifier, ort, request.lines);
  return { type: 'texts', texts: await recogniseOriented(recognition, ort, request.lines, turned, dictionary) };
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
