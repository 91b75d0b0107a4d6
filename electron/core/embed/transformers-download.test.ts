/**
 * First use with downloading allowed: the model comes from a hub-shaped HTTP server on 127.0.0.1
 * (serving the generated test model as `/<modelId>/resolve/main/<file>`), through transformers.js's
 * own download code, into `modelsDir`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { tempDir } from '../testing/temp';
import type { Embedder, ModelProgress } from './embedder';
import { startModelHub, type ModelHub } from './testing/model-hub';
import { writeTestModel } from './testing/test-model';
import { createTransformersEmbedder } from './transformers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startHub(filesRoot: string): Promise<ModelHub> {
  const hub = await startModelHub(filesRoot);
  cleanups.push(() => hub.close());
  return hub;
}

async function track(promise: Promise<Embedder>): Promise<Embedder> {
  const embedder = await promise;
  cleanups.push(() => embedder.close());
  return embedder;
}

describe('createTransformersEmbedder downloading a model', () => {
  it('downloads into modelsDir with progress, then loads from disk without the network', async () => {
    const hubFiles = tempDir();
    const { modelId } = await writeTestModel(hubFiles);
    const hub = await startHub(hubFiles);
    const modelsDir = tempDir();
    const progress: ModelProgress[] = [];

    const first = await track(createTransformersEmbedder({ modelsDir, modelId, remoteHost: hub.url, onProgress: (p) => progress.push(p) }));
    expect(first.dimension).toBe(64);
    expect(progress[0]).toEqual({ modelId, status: 'downloading' });
    const model = progress.filter((p) => p.file === 'onnx/model_quantized.onnx' && p.total);
    expect(model.at(-1)?.loaded).toBe(model.at(-1)?.total);
    expect(progress.at(-1)?.status).toBe('ready');
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) {
      const downloaded = fs.readFileSync(path.join(modelsDir, modelId, file));
      expect(downloaded.equals(fs.readFileSync(path.join(hubFiles, modelId, file))), file).toBe(true);
    }

    const served = hub.requests.length;
    const second = await track(createTransformersEmbedder({ modelsDir, modelId, remoteHost: hub.url, onProgress: (p) => progress.push(p) }));
    expect(hub.requests.length).toBe(served);
    expect(Array.from(await second.embedQuery('超时重试'))).toEqual(Array.from(await first.embedQuery('超时重试')));
  });

  it('with a downloadDir the model is downloaded there and nothing is written into modelsDir', async () => {
    const hubFiles = tempDir();
    const { modelId } = await writeTestModel(hubFiles);
    const hub = await startHub(hubFiles);
    const modelsDir = path.join(tempDir(), 'models');
    const downloadDir = tempDir();
    const embedder = await track(createTransformersEmbedder({ modelsDir, modelId, remoteHost: hub.url, downloadDir }));
    expect((await embedder.embedQuery('缓存')).length).toBe(64);
    expect(fs.existsSync(modelsDir)).toBe(false);
    expect(fs.existsSync(path.join(downloadDir, modelId, 'onnx', 'model_quantized.onnx'))).toBe(true);
  });

  it('a hub without the model: model_unavailable saying the download failed', async () => {
    const hub = await startHub(tempDir());
    const modelsDir = tempDir();
    const error = await createTransformersEmbedder({ modelsDir, modelId: 'nobody/nothing', remoteHost: hub.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiftError);
    expect((error as SiftError).code).toBe('model_unavailable');
    expect((error as SiftError).message).toContain(path.join(modelsDir, 'nobody', 'nothing'));
    expect((error as SiftError).message).toMatch(/downloading it from http:\/\/127\.0\.0\.1:\d+\/ failed/);
  });

  it('no network at all (nothing listening): model_unavailable, not a hang', async () => {
    const hub = await startHub(tempDir());
    await cleanups.pop()?.(); // close the server: its port now refuses connections
    const error = await createTransformersEmbedder({ modelsDir: tempDir(), modelId: 'a/b', remoteHost: hub.url }).catch((e: unknown) => e);
    expect((error as SiftError).code).toBe('model_unavailable');
  });
});
