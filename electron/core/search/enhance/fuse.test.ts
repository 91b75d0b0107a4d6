import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, type StageHit } from '../fusion';
import { fuseProbeLists, probesOf } from './fuse';

const hits = (...ids: number[]): StageHit[] => ids.map((chunkId, i) => ({ chunkId, score: i + 0.5 }));

describe('fuseProbeLists: one RRF over every probe and stage', () => {
  it('gives exactly the two-list fusion for one probe', () => {
    const keyword = hits(4, 2, 9, 2);
    const vector = hits(9, 7, 4);
    const many = fuseProbeLists([{ probe: 0, stage: 'keyword', hits: keyword }, { probe: 0, stage: 'vector', hits: vector }]);
    const two = reciprocalRankFusion(keyword, vector);
    expect(many.map(({ probes: _p, ...rest }) => rest)).toEqual(two);
  });

  it('sums over probes, keeps the best rank per stage and which probe found each chunk', () => {
    const fused = fuseProbeLists([
      { probe: 0, stage: 'keyword', hits: hits(1, 2) },
      { probe: 1, stage: 'keyword', hits: hits(3, 1) },
      { probe: 2, stage: 'vector', hits: hits(3) },
    ]);
    expect(fused.map((h) => h.chunkId)).toEqual([3, 1, 2]);
    const [three, one] = fused;
    expect(three!.rrf).toBeCloseTo(2 / 61, 12);
    expect(one!.rrf).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(one).toMatchObject({ keywordRank: 1, keywordScore: 0.5, vectorRank: null });
    expect(one!.probes).toEqual([{ probe: 0, stage: 'keyword', rank: 1 }, { probe: 1, stage: 'keyword', rank: 2 }]);
    expect(probesOf([{ probes: three!.probes }, { probes: one!.probes }])).toEqual([
      { probe: 0, stage: 'keyword', rank: 1 }, { probe: 1, stage: 'keyword', rank: 1 }, { probe: 2, stage: 'vector', rank: 1 },
    ]);
  });

  it('breaks an exact tie toward the earlier probe (the query before its rephrasings)', () => {
    const fused = fuseProbeLists([{ probe: 0, stage: 'keyword', hits: hits(8) }, { probe: 1, stage: 'keyword', hits: hits(5) }]);
    expect(fused.map((h) => h.chunkId)).toEqual([8, 5]);
  });
});
