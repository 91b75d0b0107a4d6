/**
 * The transformers.js embedder end to end: the generated test model, loaded offline from a temp
 * folder, run by the real pipeline in a real worker thread.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { tempDir } from '../testing/temp';
import type { Embedder, ModelProgress } from './embedder';
import { writeTestModel } from './testing/test-model';
import { EMBED_WORKER, createTransformersEmbedder, type TransformersOptions } from './transformers';

const open: Embedder[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((embedder) => embedder.close()));
});

async function embedderOn(dir: string, options: Partial<TransformersOptions> = {}) {
  const embedder = await createTransformersEmbedder({ modelsDir: dir, allowDownload: false, modelId: 'sift-test/tiny-embedder', ...options });
  open.push(embedder);
  return embedder;
}

async function testEmbedder(options: Partial<TransformersOptions> = {}) {
  const dir = tempDir();
  await writeTestModel(dir);
  return embedderOn(dir, options);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

async function failure(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SiftError);
  return error as SiftError;
}

describe('createTransformersEmbedder with the test model', () => {
  // One embedder for the tests that need no special options: starting a worker takes a second or two.
  let shared: Embedder;
  let sharedDir: string;
  beforeAll(async () => {
    sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-embed-'));
    await writeTestModel(sharedDir);
    shared = await createTransformersEmbedder({ modelsDir: sharedDir, allowDownload: false, modelId: 'sift-test/tiny-embedder' });
  });
  afterAll(async () => {
    await shared?.close();
    fs.rmSync(sharedDir, { recursive: true, force: true });
  });

  it('loads offline in a worker thread, with the dimension read from the model', async () => {
    const progress: ModelProgress[] = [];
    const embedder = await testEmbedder({ onProgress: (p) => progress.push(p) });
    expect(embedder.id).toBe('transformers:sift-test/tiny-embedder:q8');
    expect(embedder.dimension).toBe(64);
    expect(embedder.workerThreadId).not.toBe(threadId);
    expect(progress[0]).toEqual({ modelId: 'sift-test/tiny-embedder', status: 'loading' });
    expect(progress.at(-1)).toEqual({ modelId: 'sift-test/tiny-embedder', status: 'ready' });
    expect(progress.some((p) => p.file === 'onnx/model_quantized.onnx')).toBe(true);
    expect(progress.every((p) => p.status !== 'downloading')).toBe(true);
  });

  it('gives one unit-length vector of the right length per passage, each on its own buffer', async () => {
    const embedder = shared;
    const vectors = await embedder.embedPassages(['连接超时后重试三次', 'The cat sat on the mat.', '']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(64);
      expect(vector.buffer.byteLength).toBe(64 * 4);
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
    }
    expect(await embedder.embedPassages([])).toEqual([]);
  });

  it('puts a Chinese query nearer the passage that shares its words than an unrelated English one', async () => {
    const embedder = shared;
    const [chinese, english] = await embedder.embedPassages([
      '网关请求超时后，客户端会自动重试三次，每次间隔一秒。',
      'The garden needs water every morning during the summer.',
    ]);
    const query = await embedder.embedQuery('超时 重试');
    expect(dot(query, chinese!)).toBeGreaterThan(dot(query, english!) + 0.2);
  });

  it('ranks English passages by shared words too', async () => {
    const embedder = shared;
    const [retry, cooking] = await embedder.embedPassages([
      'When the request times out the client will retry the connection.',
      'Cook the rice, then serve dinner with tea.',
    ]);
    const query = await embedder.embedQuery('connection timeout retry');
    expect(dot(query, retry!)).toBeGreaterThan(dot(query, cooking!));
  });

  it('embeds the same text identically, in any batch and batch size', async () => {
    const embedder = await testEmbedder({ batchSize: 2 });
    const texts = ['alpha beta', '超时重试', 'gamma', 'delta 的', 'epsilon'];
    const together = await embedder.embedPassages(texts);
    const alone = await Promise.all(texts.map(async (t) => (await embedder.embedPassages([t]))[0]!));
    together.forEach((vector, i) => expect(Array.from(vector)).toEqual(Array.from(alone[i]!)));
    const [again] = await embedder.embedPassages(['alpha beta']);
    expect(Array.from(again!)).toEqual(Array.from(together[0]!));
  });

  it('applies the passage and query prefixes (e5 style) only when they are set', async () => {
    const plain = shared;
    expect(Array.from(await plain.embedQuery('timeout retry'))).toEqual(Array.from((await plain.embedPassages(['timeout retry']))[0]!));

    const prefixed = await testEmbedder({ passagePrefix: 'passage: ', queryPrefix: 'query: ' });
    const asQuery = await prefixed.embedQuery('timeout retry');
    const [asPassage] = await prefixed.embedPassages(['timeout retry']);
    expect(Array.from(asQuery)).not.toEqual(Array.from(asPassage!));
    expect(Array.from(asPassage!)).toEqual(Array.from((await plain.embedPassages(['passage: timeout retry']))[0]!));
  });

  it('loads the fp32 file as well, close to the q8 vectors', async () => {
    const dir = tempDir();
    await writeTestModel(dir);
    const q8 = await embedderOn(dir);
    const fp32 = await embedderOn(dir, { dtype: 'fp32' });
    expect(fp32.id).toBe('transformers:sift-test/tiny-embedder:fp32');
    const text = '数据库连接超时 database timeout';
    expect(dot(await q8.embedQuery(text), await fp32.embedQuery(text))).toBeGreaterThan(0.99);
  });

  it('reads the model from localModelDir before modelsDir', async () => {
    const [local, models] = [tempDir(), tempDir()];
    await writeTestModel(local, { dimension: 24 });
    await writeTestModel(models, { dimension: 40 });
    const embedder = await embedderOn(models, { localModelDir: local });
    expect(embedder.dimension).toBe(24);
    const fallback = await embedderOn(models, { localModelDir: tempDir() });
    expect(fallback.dimension).toBe(40);
  });

  it('refuses calls after close()', async () => {
    const embedder = await testEmbedder();
    await embedder.close();
    expect((await failure(embedder.embedQuery('x'))).code).toBe('cancelled');
  });

  it('embeds 1,000 passages (throughput printed, not asserted)', async () => {
    const embedder = shared;
    const texts = Array.from(
      { length: 1000 },
      (_, i) => `Note ${i}: the gateway timed out and the client retried ${i % 5} times. 第${i}次请求超时后自动重试，并记录日志。`,
    );
    const started = performance.now();
    const vectors = await embedder.embedPassages(texts);
    const seconds = (performance.now() - started) / 1000;
    expect(vectors).toHaveLength(1000);
    console.log(`test model: 1,000 passages in ${seconds.toFixed(2)} s (${Math.round(1000 / seconds)} passages/s)`);
  });
});

describe('createTransformersEmbedder when the model is missing', () => {
  it('offline and not on disk: model_unavailable naming the folder it looked in', async () => {
    const dir = tempDir();
    const error = await failure(createTransformersEmbedder({ modelsDir: dir, allowDownload: false }));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toContain(path.join(dir, 'Xenova', 'multilingual-e5-small'));
    expect(error.message).toMatch(/downloading is turned off/);
  });

  it('names both folders when a local model folder is set', async () => {
    const [local, models] = [tempDir(), tempDir()];
    const error = await failure(createTransformersEmbedder({ modelsDir: models, localModelDir: local, allowDownload: false, modelId: 'a/b' }));
    expect(error.message).toContain(path.join(local, 'a', 'b'));
    expect(error.message).toContain(path.join(models, 'a', 'b'));
  });

  it('a model folder the pipeline cannot load (damaged file): model_unavailable from the worker, not a hang', async () => {
    const dir = tempDir();
    const { modelId } = await writeTestModel(dir);
    fs.writeFileSync(path.join(dir, modelId, 'onnx', 'model_quantized.onnx'), 'not an onnx file');
    const error = await failure(embedderOn(dir));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toContain(path.join(dir, modelId));
  });

  it.each(['../escape', '/abs/path', 'a/b/c', ''])('refuses the model id %j', async (modelId) => {
    expect((await failure(createTransformersEmbedder({ modelsDir: tempDir(), modelId }))).code).toBe('invalid_argument');
  });
});

describe('EMBED_WORKER', () => {
  it('names the worker entry beside this module and the source the Electron build bundles', () => {
    expect(fs.existsSync(new URL(EMBED_WORKER.file, import.meta.url))).toBe(true);
    expect(fs.existsSync(path.resolve(EMBED_WORKER.source))).toBe(true);
  });
});
