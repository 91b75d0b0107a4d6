import { describe, expect, it } from 'vitest';
import type { EmbeddingSettings } from '../../../shared/settings';
import { draftOf, embeddingChanged, embeddingFieldOf, embeddingOf } from './embedding-form';

const saved: EmbeddingSettings = { provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: '/models', ollamaModel: null };

describe('embeddingOf', () => {
  it.each([
    [draftOf(saved), saved],
    [{ provider: 'transformers', modelId: ' m ', localModelDir: '  ', ollamaModel: '' }, { provider: 'transformers', modelId: 'm', localModelDir: null, ollamaModel: null }],
    [{ provider: 'ollama', modelId: 'm', localModelDir: '', ollamaModel: ' bge-m3 ' }, { provider: 'ollama', modelId: 'm', localModelDir: null, ollamaModel: 'bge-m3' }],
  ] as const)('%j → %j', (draft, expected) => {
    expect(embeddingOf(draft)).toEqual(expected);
  });
});

describe('embeddingChanged', () => {
  it.each([
    [{}, false],
    [{ modelId: 'sift-test/tiny-embedder ' }, false],
    [{ modelId: 'sift-test/other' }, true],
    [{ localModelDir: '' }, true],
    [{ provider: 'none' as const }, true],
    [{ ollamaModel: 'nomic-embed-text' }, true],
  ])('draft changed by %j → %s', (change, expected) => {
    expect(embeddingChanged(saved, { ...draftOf(saved), ...change })).toBe(expected);
  });
});

describe('embeddingFieldOf', () => {
  it.each([
    ['settings.set: patch.embedding.modelId: must not be empty', 'modelId'],
    ['settings: embedding.localModelDir: Too small', 'localModelDir'],
    ['settings.set: patch.embedding.provider: Invalid option', 'provider'],
    ['settings.set: patch.embedding.ollamaModel: Too small', 'ollamaModel'],
    ['settings.set: patch.embedding.modelIdx: ?', null],
    ['settings.set: patch.ollamaHost: must be an http(s) URL', null],
    ['the model sift-test/other could not be loaded', null],
  ])('%s → %s', (message, expected) => {
    expect(embeddingFieldOf(message)).toBe(expected);
  });
});
