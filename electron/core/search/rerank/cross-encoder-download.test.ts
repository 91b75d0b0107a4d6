/**
 * The cross-encoder's first use with downloading allowed: the tiny cross-encoder comes from a hub-shaped HTTP server
 * on 127.0.0.1 through transformers.js's own download code into the models folder, with progress; the next reranker
 * on that folder loads it from disk without the network.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelProgress } from '../../../../shared/models';
import { startModelHub } from '../../embed/testing/model-hub';
import { tempDir } from '../../testing/temp';
import { createCrossEncoderReranker } from './cross-encoder';
import { writeTestCrossEncoder } from './testing/test-cross-encoder';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

const QUERY = 'connection timeout';
const PASSAGES = ['music and food', 'a connection timeout on the server'];

describe('createCrossEncoderReranker downloading its model', () => {
  it('downloads into the models folder with progress, then loads from disk without the network', async () => {
    const hubFiles = tempDir();
    const { modelId } = await writeTestCrossEncoder(hubFiles);
    const hub = await startModelHub(hubFiles);
    open.push(hub);
    const modelsDir = tempDir();
    const progress: ModelProgress[] = [];

    const onProgress = (p: ModelProgress) => progress.push(p);
    const first = createCrossEncoderReranker({ modelsDir, modelId, remoteHost: hub.url, onProgress });
    open.push(first);
    const outcome = await first.rerank(QUERY, PASSAGES);
    expect(outcome.fallback).toBeNull();
    expect(outcome.order).toEqual([1, 0]);
    expect(outcome.scores).toEqual([0, 2]);

    expect(progress[0]).toEqual({ modelId, status: 'downloading' });
    const onnxFile = progress.filter((p) => p.file === 'onnx/model_quantized.onnx' && p.total);
    expect(onnxFile.length).toBeGreaterThan(0);
    expect(onnxFile.at(-1)?.loaded).toBe(onnxFile.at(-1)?.total);
    expect(progress.every((p) => p.status !== 'failed')).toBe(true);
    expect(progress.at(-1)).toEqual({ modelId, status: 'ready' });
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) {
      const downloaded = fs.readFileSync(path.join(modelsDir, modelId, file));
      expect(downloaded.equals(fs.readFileSync(path.join(hubFiles, modelId, file))), file).toBe(true);
    }

    const served = hub.requests.length;
    const later: ModelProgress[] = [];
    const onLaterProgress = (p: ModelProgress) => later.push(p);
    const second = createCrossEncoderReranker({ modelsDir, modelId, remoteHost: hub.url, onProgress: onLaterProgress });
    open.push(second);
    expect((await second.rerank(QUERY, PASSAGES)).scores).toEqual([0, 2]);
    expect(hub.requests.length).toBe(served);
    expect(later[0]).toEqual({ modelId, status: 'loading' });
  });

  it('with a downloadDir the model goes there and nothing is written into the models folder', async () => {
    const hubFiles = tempDir();
    const { modelId } = await writeTestCrossEncoder(hubFiles);
    const hub = await startModelHub(hubFiles);
    open.push(hub);
    const modelsDir = path.join(tempDir(), 'models');
    const downloadDir = tempDir();
    const ranker = createCrossEncoderReranker({ modelsDir, modelId, remoteHost: hub.url, downloadDir });
    open.push(ranker);
    expect((await ranker.rerank(QUERY, PASSAGES)).order).toEqual([1, 0]);
    expect(fs.existsSync(modelsDir)).toBe(false);
    expect(fs.existsSync(path.join(downloadDir, modelId, 'onnx', 'model_quantized.onnx'))).toBe(true);
  });

  it('without waiting for the download: fused order meanwhile, saying so; the model once it is there', async () => {
    const hubFiles = tempDir();
    const { modelId } = await writeTestCrossEncoder(hubFiles);
    const hub = await startModelHub(hubFiles);
    open.push(hub);
    const options = { modelsDir: tempDir(), modelId, remoteHost: hub.url, waitForDownload: false };
    const ranker = createCrossEncoderReranker(options);
    open.push(ranker);
    const meanwhile = await ranker.rerank(QUERY, PASSAGES);
    expect(meanwhile.order).toEqual([0, 1]);
    expect(meanwhile.scores).toEqual([null, null]);
    const saying = 'is being downloaded; until it is ready the passages keep their fused order.';
    expect(meanwhile.fallback).toBe(`Reranker model "${modelId}" ${saying}`);
    await ranker.settled();
    expect(await ranker.rerank(QUERY, PASSAGES)).toMatchObject({ order: [1, 0], scores: [0, 2], fallback: null });
  });
});
