import { describe, expect, it } from 'vitest';
import type { DigestStatus, IngestStatus } from '../../../shared/models';
import { laterDigest, laterIngest } from './snapshot-order';

const base: DigestStatus = {
  kbId: 'kb', enabled: true, state: 'idle', code: null, pagesTotal: 0, pagesDone: 0, generated: 0, removed: 0,
  unchanged: 0, problems: [], stored: 0, currentPage: null, model: null, message: null, startedAt: null, finishedAt: null,
};
const at = (t: string, over: Partial<DigestStatus> = {}): DigestStatus => ({ ...base, startedAt: t, ...over });

describe('laterDigest', () => {
  it('keeps a running run over the late answer to "turn on", taken before the run began', () => {
    const running = at('2026-12-03T10:00:00.100Z', { state: 'running', pagesTotal: 2 });
    const answer = { ...base, enabled: true }; // idle, no run yet
    expect(laterDigest(running, answer)).toBe(running);
    const previousRun = at('2026-12-03T09:00:00.000Z', { state: 'done', stored: 3 });
    expect(laterDigest(running, previousRun)).toBe(running);
  });

  it('within one run, the snapshot further along wins in either order', () => {
    const t = '2026-12-03T10:00:00.100Z';
    const begun = at(t, { state: 'running' });
    const counted = at(t, { state: 'running', pagesTotal: 2 });
    const one = at(t, { state: 'running', pagesTotal: 2, pagesDone: 1 });
    const done = at(t, { state: 'cancelled', pagesTotal: 2, pagesDone: 1, generated: 1 });
    expect(laterDigest(counted, begun)).toBe(counted);
    expect(laterDigest(begun, counted)).toBe(counted);
    expect(laterDigest(done, one)).toBe(done);
    expect(laterDigest(one, done)).toBe(done);
  });

  it('a new run replaces a finished one; of two ends of one run the one that came last holds', () => {
    const old = at('2026-12-03T10:00:00.100Z', { state: 'done', generated: 3 });
    const fresh = at('2026-12-03T10:05:00.000Z', { state: 'running' });
    expect(laterDigest(old, fresh)).toBe(fresh);
    // Turning digests off after the run: its answer says enabled: false with the digests removed.
    const off = { ...old, enabled: false, removed: 3, generated: 0, stored: 0 };
    expect(laterDigest(old, off)).toBe(off);
    expect(laterDigest(off, { ...off })).not.toBe(off);
    expect(laterDigest(undefined, fresh)).toBe(fresh);
  });
});

describe('laterIngest', () => {
  it('keeps the snapshot further along within a run, and a later run over an earlier one', () => {
    const run = { kbId: 'kb', startedAt: '2026-12-03T10:00:00.000Z', state: 'indexing', filesDone: 5, chunksEmbedded: 0 } as unknown as IngestStatus;
    const further = { ...run, filesDone: 6 };
    const embedding = { ...run, state: 'embedding', filesDone: 6, chunksEmbedded: 10 } as IngestStatus;
    expect(laterIngest(further, run)).toBe(further);
    expect(laterIngest(run, further)).toBe(further);
    expect(laterIngest(embedding, further)).toBe(embedding);
    const next = { ...run, startedAt: '2026-12-03T10:05:00.000Z', state: 'scanning', filesDone: 0 } as IngestStatus;
    expect(laterIngest(embedding, next)).toBe(next);
    expect(laterIngest(next, embedding)).toBe(next);
  });
});
