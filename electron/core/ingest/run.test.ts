/** How a run cuts its files into batches (one transaction each, handed to the ingest workers). */
import { describe, expect, it } from 'vitest';
import { BATCH_BYTES, batchesOf } from './run';
import type { FileJob } from './prepare';

function jobs(count: number, name: (i: number) => string, size: number): FileJob[] {
  return Array.from({ length: count }, (_, i) => ({
    folder: '/f', relPath: name(i), absPath: `/f/${name(i)}`, pagePath: `wiki/${name(i)}`, maxFileBytes: 1 << 30, knownSha256: null, size,
  }));
}
const sizes = (batches: FileJob[][]) => batches.map((b) => b.length);

describe('batchesOf', () => {
  it('cuts at the file count, keeping every file once and in order', () => {
    const all = jobs(300, (i) => `n${i}.md`, 1000);
    const batches = batchesOf(all, 128, BATCH_BYTES, 2);
    expect(sizes(batches)).toEqual([128, 128, 44]);
    expect(batches.flat()).toEqual(all);
  });

  it('spreads a small run over every lane', () => {
    expect(sizes(batchesOf(jobs(10, (i) => `n${i}.md`, 1000), 128, BATCH_BYTES, 4))).toEqual([3, 3, 3, 1]);
    expect(sizes(batchesOf(jobs(1, () => 'one.md', 1000), 128, BATCH_BYTES, 4))).toEqual([1]);
    expect(batchesOf([], 128, BATCH_BYTES, 4)).toEqual([]);
  });

  it('ends a batch at the byte bound, where a PDF byte weighs 16 and a Word byte 4', () => {
    const mb = 1 << 20;
    expect(sizes(batchesOf(jobs(20, (i) => `n${i}.md`, mb), 128, BATCH_BYTES, 1))).toEqual([4, 4, 4, 4, 4]);
    expect(sizes(batchesOf(jobs(20, (i) => `p${i}.PDF`, 64 * 1024), 128, BATCH_BYTES, 1))).toEqual([4, 4, 4, 4, 4]);
    expect(sizes(batchesOf(jobs(20, (i) => `w${i}.docx`, 256 * 1024), 128, BATCH_BYTES, 1))).toEqual([4, 4, 4, 4, 4]);
    // A file over the bound on its own still makes a batch of one.
    expect(sizes(batchesOf(jobs(2, (i) => `big${i}.md`, 10 * mb), 128, BATCH_BYTES, 1))).toEqual([1, 1]);
  });
});
