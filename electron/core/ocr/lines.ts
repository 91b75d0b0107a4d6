/**
 * Reading a page's lines on several cores: `count` line workers (line-worker.ts), each holding the classifier and
 * the recogniser on one thread. A page's lines are split into one share per worker of about equal total width
 * (recognition time grows with a line's width), longest first; each share is read in one request, and the texts
 * come back in the order of the lines. The workers keep the process alive only while they have work in hand.
 */
import type { Worker } from 'node:worker_threads';
import { WorkerClient, spawnWorker } from '../workers/rpc';
import type { RgbaImage } from './image';
import type { LineReply, LineRequest } from './line-worker';
import type { RecognisedText } from './recognise';

/** What a worker needs to load: the model files and the recogniser's classes. */
export interface LineModels {
  classifier: string;
  recognition: string;
  dictionary: string[];
  fuse: boolean;
}

/** Line workers reading the lines of one page at a time. */
export interface LineReaders {
  read(lines: RgbaImage[]): Promise<RecognisedText[]>;
  /** Let each worker finish and release its models, then end. */
  close(): Promise<void>;
}

/** Split line indexes into `count` shares of about equal total width: each line, longest first, to the lightest share. */
export function shareLines(widths: readonly number[], count: number): number[][] {
  const shares = Array.from({ length: count }, () => ({ width: 0, lines: [] as number[] }));
  const order = widths.map((_, i) => i).sort((a, b) => widths[b]! - widths[a]! || a - b);
  for (const i of order) {
    const lightest = shares.reduce((best, s) => (s.width < best.width ? s : best));
    lightest.lines.push(i);
    lightest.width += widths[i]!;
  }
  return shares.map((s) => s.lines.sort((a, b) => a - b)).filter((s) => s.length > 0);
}

/** Start `count` line workers and load the models in each. */
export async function startLineReaders(models: LineModels, count: number): Promise<LineReaders> {
  const workers = Array.from({ length: count }, (_, n) => {
    const worker: Worker = spawnWorker(() => new URL('./line-worker.ts', import.meta.url), 'ocr-line-worker.cjs');
    return { worker, client: new WorkerClient<LineRequest, LineReply>(worker, `OCR line worker ${n + 1}`) };
  });
  /** A call that keeps the process alive until it is answered (an idle worker does not). */
  const call = async (w: (typeof workers)[number], request: LineRequest, transfer: ArrayBuffer[] = []) => {
    w.worker.ref();
    try {
      return await w.client.call(request, transfer);
    } finally {
      if (w.client.inFlight === 0) w.worker.unref();
    }
  };
  try {
    await Promise.all(workers.map((w) => call(w, { type: 'load', ...models })));
  } catch (err) {
    await Promise.all(workers.map((w) => w.client.closeGracefully()));
    throw err;
  }
  return {
    async read(lines) {
      const shares = shareLines(lines.map((l) => l.width), workers.length);
      const texts: RecognisedText[] = new Array(lines.length);
      await Promise.all(shares.map(async (share, k) => {
        const images = share.map((i) => lines[i]!);
        // Transferred, not copied: a line image's bytes are its own buffer (cropResize), unless it is a view.
        const transfer = images.flatMap((l) => (l.data.byteLength === l.data.buffer.byteLength ? [l.data.buffer as ArrayBuffer] : []));
        const reply = await call(workers[k]!, { type: 'read', lines: images }, transfer);
        if (reply.type !== 'texts') throw new Error('an OCR line worker answered a read with something else');
        share.forEach((i, j) => (texts[i] = reply.texts[j]!));
      }));
      return texts;
    },
    async close() {
      await Promise.all(workers.map((w) => w.client.closeGracefully()));
    },
  };
}
