import { describe, expect, it } from 'vitest';
import { VectorKernels } from './vector-kernels';
import type { VectorIndex } from './vector-index';
import { random } from './testing/random';

/** An index of `count` entries of random sign bits and codes (only what the kernels read is filled in). */
function randomIndex(count: number, dimension: number, next: () => number): VectorIndex {
  const words = Math.ceil(dimension / 32);
  const bits = Uint32Array.from({ length: count * words }, () => (next() * 2 ** 32) >>> 0);
  // Bits beyond the dimension are never set by the index; keep them clear here too.
  const spare = words * 32 - dimension;
  if (spare > 0) for (let e = 0; e < count; e++) bits[e * words + words - 1]! &= 0xffffffff >>> spare;
  const codes = Int8Array.from({ length: count * dimension }, () => Math.round(next() * 254) - 127);
  return {
    dimension, words, bits, codes, ids: Int32Array.from({ length: count }, (_, i) => i),
    mean: new Float32Array(dimension), scales: new Float32Array(count).fill(1),
  };
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x >>>= 1) n += x & 1;
  return n;
}

describe('the vector kernels (WebAssembly)', () => {
  it.each([4, 33, 64, 100, 384, 768])('count the bits in which each entry differs from the query, and the entries at each count, %i dimensions', (dimension) => {
    const next = random(dimension);
    const index = randomIndex(257, dimension, next);
    const query = randomIndex(1, dimension, next).bits;
    const want = Array.from({ length: 257 }, (_, e) => {
      let d = 0;
      for (let w = 0; w < index.words; w++) d += popcount(index.bits[e * index.words + w]! ^ query[w]!);
      return d;
    });
    const { distance, histogram } = new VectorKernels(index).distances(query);
    expect([...distance]).toEqual(want);
    const counts = new Array<number>(index.words * 32 + 1).fill(0);
    for (const d of want) counts[d]!++;
    expect([...histogram]).toEqual(counts);
  });

  it.each([4, 33, 100, 384, 768])('give the exact integer dot product of chosen entries with the query, %i dimensions', (dimension) => {
    const next = random(1000 + dimension);
    const index = randomIndex(300, dimension, next);
    const query = Int32Array.from({ length: dimension }, () => Math.round(next() * 65_534) - 32_767);
    const entries = [299, 0, 17, 17, 150, 3];
    const want = entries.map((e) => {
      let d = 0;
      for (let i = 0; i < dimension; i++) d += query[i]! * index.codes[e * dimension + i]!;
      return d;
    });
    expect([...new VectorKernels(index).dotProducts(query, entries)]).toEqual(want);
  });

  it('grow their memory for many candidates and still scan the sign bits they hold', () => {
    const next = random(7);
    const index = randomIndex(5_000, 384, next);
    const kernels = new VectorKernels(index);
    const query = randomIndex(1, 384, next).bits;
    const before = [...kernels.distances(query).distance];
    const all = Array.from({ length: 5_000 }, (_, e) => e);
    const q = Int32Array.from({ length: 384 }, () => 1);
    const sums = kernels.dotProducts(q, all);
    expect(sums[4_999]).toBe(index.codes.subarray(4_999 * 384).reduce((a, b) => a + b, 0));
    expect([...kernels.distances(query).distance]).toEqual(before);
  });
});
