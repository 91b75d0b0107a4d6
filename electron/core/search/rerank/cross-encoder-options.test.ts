/**
 * Where the cross-encoder's model comes from: the reranker model setting (kept across restarts, checked), and the
 * options built from settings, the models folder and the environment — the embedding model's folders and hub.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings';
import { createSift, type Sift } from '../../sift';
import { tempDir } from '../../testing/temp';
import { crossEncoderOptionsFrom, DEFAULT_RERANK_MODEL_ID } from './cross-encoder';

let sift: Sift | null = null;
afterEach(async () => {
  await sift?.close();
  sift = null;
});

describe('the reranker model setting', () => {
  it('is absent by default, kept across restarts once set, and refuses an empty id', async () => {
    const dataDir = tempDir();
    sift = createSift({ dataDir });
    expect(await sift.invoke('settings.get', {})).toEqual({ ok: true, value: DEFAULT_SETTINGS });
    const modelId = 'onnx-community/bge-reranker-v2-m3-ONNX';
    const set = await sift.invoke('settings.set', { patch: { rerankModelId: modelId } });
    expect(set).toMatchObject({ ok: true, value: { rerankModelId: modelId } });
    await sift.close();
    sift = createSift({ dataDir });
    expect(await sift.invoke('settings.get', {})).toMatchObject({ ok: true, value: { rerankModelId: modelId } });
    const empty = await sift.invoke('settings.set', { patch: { rerankModelId: '  ' } });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(!empty.ok && empty.error.message).toMatch(/rerankModelId: must not be empty/);
  });
});

describe('crossEncoderOptionsFrom', () => {
  const embedding = { ...DEFAULT_SETTINGS.embedding, localModelDir: '/opt/models' };

  it('uses the embedding model folders and the default model when nothing else is said', () => {
    expect(crossEncoderOptionsFrom({ embedding: DEFAULT_SETTINGS.embedding }, { dir: '/data/models' }, {})).toEqual({
      modelId: DEFAULT_RERANK_MODEL_ID,
      modelsDir: '/data/models',
      downloadDir: undefined,
      localModelDir: undefined,
      remoteHost: undefined,
    });
  });

  it('takes the setting, the local model folder and a throw-away download folder', () => {
    const models = { dir: '/data/models', downloadDir: '/tmp/x' };
    const options = crossEncoderOptionsFrom({ rerankModelId: 'a/b', embedding }, models, {});
    expect(options).toMatchObject({ modelId: 'a/b', modelsDir: '/data/models', downloadDir: '/tmp/x' });
    expect(options.localModelDir).toBe('/opt/models');
  });

  it('lets the environment win: SIFT_RERANK_MODEL, SIFT_MODEL_DIR, SIFT_MODEL_HOST', () => {
    const env = { SIFT_RERANK_MODEL: 'c/d', SIFT_MODEL_DIR: '/mnt/m', SIFT_MODEL_HOST: 'https://hf-mirror.com/' };
    const options = crossEncoderOptionsFrom({ rerankModelId: 'a/b', embedding }, { dir: '/data/models' }, env);
    expect(options).toMatchObject({ modelId: 'c/d', localModelDir: '/mnt/m', remoteHost: 'https://hf-mirror.com/' });
  });
});
