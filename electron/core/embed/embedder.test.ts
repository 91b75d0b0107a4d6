import { describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { checkBatchSize, defaultPrefixes, inBatches, normalise } from './embedder';

describe('defaultPrefixes', () => {
  const e5 = { passage: 'passage: ', query: 'query: ' };
  const none = { passage: '', query: '' };
  it.each([
    ['Xenova/multilingual-e5-small', e5],
    ['intfloat/e5-base-v2', e5],
    ['e5-large', e5],
    ['Xenova/E5-small', e5],
    ['Xenova/all-MiniLM-L6-v2', none],
    ['nomic-embed-text', none],
    ['sift-test/tiny-embedder', none],
    ['someone/e5x-model', none],
    ['e5org/minilm', none], // the owner's name does not make the model an e5 model
  ])('%s', (modelId, expected) => {
    expect(defaultPrefixes(modelId)).toEqual(expected);
  });
});

describe('normalise', () => {
  it.each([
    [[3, 4], [0.6, 0.8]],
    [[0, 0, 2], [0, 0, 1]],
    [[-1, 0], [-1, 0]],
    [[0, 0], [0, 0]], // no direction: stays zero rather than NaN
    [[1e-30, 0], [1, 0]],
  ])('%j → %j', (input, expected) => {
    const result = Array.from(normalise(Float32Array.from(input)));
    result.forEach((value, i) => expect(value).toBeCloseTo(expected[i] as number, 6));
  });

  it('scales in place and returns the same array', () => {
    const vector = Float32Array.of(2, 0);
    expect(normalise(vector)).toBe(vector);
    expect(vector[0]).toBe(1);
  });
});

describe('inBatches', () => {
  it.each([
    [[], 3, []],
    [[1, 2, 3], 3, [[1, 2, 3]]],
    [[1, 2, 3, 4], 3, [[1, 2, 3], [4]]],
    [[1, 2, 3], 1, [[1], [2], [3]]],
  ])('%j by %i → %j', (items, size, expected) => {
    expect(inBatches(items, size)).toEqual(expected);
  });
});

describe('checkBatchSize', () => {
  it.each([
    [undefined, 32],
    [1, 1],
    [256, 256],
  ])('%s → %i', (value, expected) => {
    expect(checkBatchSize(value, 32, 'Test')).toBe(expected);
  });

  it.each([0, 257, 1.5, Number.NaN, -4])('refuses %s with invalid_argument naming the source', (value) => {
    expect(() => checkBatchSize(value, 32, 'Test embedder')).toThrow(SiftError);
    expect(() => checkBatchSize(value, 32, 'Test embedder')).toThrow(/^Test embedder: batchSize/);
  });
});
