/**
 * The embedding worker: loads a transformers.js `feature-extraction` pipeline once, then embeds
 * one batch per request, off the main thread. Started through `embed-worker.mjs` (sources) or as
 * the bundled `embed-worker.mjs` (Electron build); see {@link EMBED_WORKER} in `transformers.ts`.
 * Requests arrive one at a time (the main thread queues them), so the pipeline is never re-entered.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { env, pipeline, type FeatureExtractionPipeline, type ProgressInfo } from '@huggingface/transformers';
import type { EmbedRequest, ProgressReply, WorkerReply, WorkerSettings } from './worker-protocol';

const settings = workerData as WorkerSettings;
const port = parentPort;

function send(reply: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(reply, transfer);
}

/** Forwards file progress, at most once per whole percent per file, so a download does not flood the port. */
function progressForwarder(): (info: ProgressInfo) => void {
  const lastPercent = new Map<string, number>();
  const status: ProgressReply['status'] = settings.onDisk ? 'loading' : 'downloading';
  return (info) => {
    if (info.status === 'initiate') {
      send({ type: 'progress', status, file: info.file });
    } else if (info.status === 'progress') {
      const percent = Math.floor(info.progress);
      if (lastPercent.get(info.file) === percent) return;
      lastPercent.set(info.file, percent);
      send({ type: 'progress', status, file: info.file, loaded: info.loaded, total: info.total });
    }
  };
}

async function load(): Promise<FeatureExtractionPipeline> {
  env.allowLocalModels = true;
  env.allowRemoteModels = settings.allowDownload;
  env.localModelPath = settings.lookIn;
  env.useFSCache = settings.downloadTo !== null;
  if (settings.downloadTo !== null) env.cacheDir = settings.downloadTo;
  if (settings.remoteHost) env.remoteHost = settings.remoteHost.endsWith('/') ? settings.remoteHost : `${settings.remoteHost}/`;
  return pipeline('feature-extraction', settings.modelId, {
    dtype: settings.dtype,
    device: 'cpu',
    progress_callback: progressForwarder(),
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
  port.on('message', (request: EmbedRequest) => {
    embed(extractor, request.texts).then(
      (vectors) => send({ type: 'embedded', id: request.id, vectors }, vectors.map((v) => v.buffer as ArrayBuffer)),
      (error: unknown) => send({ type: 'failed', id: request.id, message: describe(error) }),
    );
  });
  send({ type: 'ready', dimension, threadId });
}

// No top-level await, so the bundle may be CommonJS or ESM. A rejection here is unhandled and
// ends the worker with an 'error' event, which the main thread reports as a crash.
void main();
