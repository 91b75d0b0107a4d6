/**
 * The embedding worker: loads a transformers.js `feature-extraction` pipeline once, then embeds
 * one batch per request, off the main thread. Started through `embed-worker.mjs` (sources) or as
 * the bundled `embed-worker.mjs` (Electron build); see {@link EMBED_WORKER} in `transformers.ts`.
 * Requests arrive one at a time (the main thread queues them), so the pipeline is never re-entered.
 * A `close` request ends it cleanly: after the batch in hand, the model's sessions are released and
 * the port closed, so the thread exits without being terminated mid-run.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { applyHubSettings, progressForwarder } from './model-files';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './worker-protocol';

const settings = workerData as WorkerSettings;
const port = parentPort;

function send(reply: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(reply, transfer);
}

async function load(): Promise<FeatureExtractionPipeline> {
  applyHubSettings(env, settings);
  return pipeline('feature-extraction', settings.modelId, {
    dtype: settings.dtype,
    device: 'cpu',
    progress_callback: progressForwarder(settings.onDisk, (progress) => send({ type: 'progress', ...progress })),
  });
}

/** Embed `texts` into separate Float32Arrays, each on its own buffer so it can be transferred. */
async function embed(extractor: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
  const output = await extractor(texts, { pooling: 'mean', normalize: true });
  const [rows, dimension] = output.dims as [number, number];
  const data = output.data as Float32Array;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < rows; row++) vectors.push(data.slice(row * dimension, (row + 1) * dimension));
  return vectors;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  if (!port) throw new Error('embed-worker-main must run in a worker thread');
  let extractor: FeatureExtractionPipeline;
  let dimension: number;
  try {
    extractor = await load();
    // The vector length comes from the model itself, not from a table of known models.
    const [probe] = await embed(extractor, ['dimension probe']);
    dimension = probe?.length ?? 0;
  } catch (error) {
    send({ type: 'load-failed', message: describe(error) });
    port.close();
    return;
  }
  let inHand: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'close') {
      // After the batch in hand: release the sessions, then let the thread end on its own.
      void inHand.then(() => extractor.dispose()).catch(() => undefined).finally(() => port.close());
      return;
    }
    inHand = embed(extractor, request.texts).then(
      (vectors) => send({ type: 'embedded', id: request.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer)),
      (error: unknown) => send({ type: 'failed', id: request.id, message: describe(error) }),
    );
  });
  send({ type: 'ready', dimension, threadId });
}

// No top-level await, so the bundle may be CommonJS or ESM. A rejection here is unhandled and
// ends the worker with an 'error' event, which the main thread reports as a crash.
void main();
