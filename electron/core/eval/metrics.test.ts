import { describe, expect, it } from 'vitest';
import { hitAt, meanScores, ndcgAt, percentile, recallAt, reciprocalRankAt, scoreQuery, type QueryScores } from './metrics';

const qrels = (entries: Record<string, number>) => new Map(Object.entries(entries));
const log2 = Math.log2;

// Hand-made rankings with every figure worked out on paper. nDCG terms are written out as
// gain / log2(rank + 1) so each expected value can be checked by reading it.
const CASES: { name: string; ranking: string[]; judgements: Record<string, number>; expected: QueryScores }[] = [
  {
    // relevant: d2 (2) at rank 2, d5 (1) at rank 5, d9 (1) never retrieved → 3 relevant in all
    name: 'two of three relevant found, graded',
    ranking: ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'],
    judgements: { d2: 2, d5: 1, d9: 1 },
    expected: {
      hitAt5: 1,
      recallAt5: 2 / 3,
      recallAt20: 2 / 3,
      mrrAt10: 1 / 2,
      // DCG = 2/log2(3) + 1/log2(6) = 1.26186 + 0.38685; IDCG = 2/log2(2) + 1/log2(3) + 1/log2(4) = 2 + 0.63093 + 0.5
      ndcgAt10: (2 / log2(3) + 1 / log2(6)) / (2 + 1 / log2(3) + 1 / log2(4)), // 0.52659
    },
  },
  {
    name: 'the only relevant document at rank 1',
    ranking: ['x', 'y'],
    judgements: { x: 3 },
    expected: { hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 1, ndcgAt10: 1 },
  },
  {
    // rank 6: outside every @5 figure, inside @10 and @20
    name: 'the only relevant document at rank 6',
    ranking: ['a', 'b', 'c', 'd', 'e', 'r', 'g'],
    judgements: { r: 1 },
    expected: { hitAt5: 0, recallAt5: 0, recallAt20: 1, mrrAt10: 1 / 6, ndcgAt10: 1 / log2(7) }, // 0.35621
  },
  {
    // rank 11: only Recall@20 sees it
    name: 'the only relevant document at rank 11',
    ranking: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'r'],
    judgements: { r: 2 },
    expected: { hitAt5: 0, recallAt5: 0, recallAt20: 1, mrrAt10: 0, ndcgAt10: 0 },
  },
  {
    name: 'nothing relevant retrieved',
    ranking: ['a', 'b', 'c'],
    judgements: { z: 1 },
    expected: { hitAt5: 0, recallAt5: 0, recallAt20: 0, mrrAt10: 0, ndcgAt10: 0 },
  },
  {
    // scores 0 and -1 are judged but not relevant: only c counts, at rank 3
    name: 'zero and negative judgements are not relevant',
    ranking: ['a', 'b', 'c'],
    judgements: { a: 0, b: -1, c: 1 },
    expected: { hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 1 / 3, ndcgAt10: 1 / log2(4) }, // 0.5
  },
  {
    // both found, in the worse order: DCG = 1/log2(2) + 2/log2(3); IDCG = 2/log2(2) + 1/log2(3)
    name: 'graded documents in the wrong order',
    ranking: ['low', 'high'],
    judgements: { low: 1, high: 2 },
    expected: { hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 1, ndcgAt10: (1 + 2 / log2(3)) / (2 + 1 / log2(3)) }, // 0.85972
  },
  {
    name: 'an empty ranking',
    ranking: [],
    judgements: { a: 1 },
    expected: { hitAt5: 0, recallAt5: 0, recallAt20: 0, mrrAt10: 0, ndcgAt10: 0 },
  },
  {
    name: 'a query without judgements',
    ranking: ['a'],
    judgements: {},
    expected: { hitAt5: 0, recallAt5: 0, recallAt20: 0, mrrAt10: 0, ndcgAt10: 0 },
  },
];

describe('scoreQuery on hand-made rankings', () => {
  it.each(CASES)('$name', ({ ranking, judgements, expected }) => {
    const got = scoreQuery(ranking, qrels(judgements));
    for (const [name, value] of Object.entries(expected)) expect(got[name as keyof QueryScores], name).toBeCloseTo(value, 12);
  });

  it('gives the worked decimals of the graded cases', () => {
    expect(scoreQuery(CASES[0]!.ranking, qrels(CASES[0]!.judgements)).ndcgAt10).toBeCloseTo(0.52659, 5);
    expect(scoreQuery(CASES[6]!.ranking, qrels(CASES[6]!.judgements)).ndcgAt10).toBeCloseTo(0.85972, 5);
  });
});

describe('single metrics at other cut-offs', () => {
  const judgements = qrels({ b: 1, d: 2, f: 1 });
  const ranking = ['a', 'b', 'c', 'd', 'e', 'f'];
  it.each([
    { k: 1, hit: 0, recall: 0, rr: 0, ndcg: 0 },
    { k: 2, hit: 1, recall: 1 / 3, rr: 1 / 2, ndcg: (1 / log2(3)) / (2 + 1 / log2(3)) },
    { k: 4, hit: 1, recall: 2 / 3, rr: 1 / 2, ndcg: (1 / log2(3) + 2 / log2(5)) / (2 + 1 / log2(3) + 1 / log2(4)) },
    { k: 100, hit: 1, recall: 1, rr: 1 / 2, ndcg: (1 / log2(3) + 2 / log2(5) + 1 / log2(7)) / (2 + 1 / log2(3) + 1 / log2(4)) },
  ])('k = $k', ({ k, hit, recall, rr, ndcg }) => {
    expect(hitAt(ranking, judgements, k)).toBe(hit);
    expect(recallAt(ranking, judgements, k)).toBeCloseTo(recall, 12);
    expect(reciprocalRankAt(ranking, judgements, k)).toBeCloseTo(rr, 12);
    expect(ndcgAt(ranking, judgements, k)).toBeCloseTo(ndcg, 12);
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses the cut-off %s', (k) => {
    expect(() => hitAt(ranking, judgements, k)).toThrow(RangeError);
    expect(() => ndcgAt(ranking, judgements, k)).toThrow(/cut-off/);
  });
});

describe('meanScores', () => {
  it('averages each figure, and gives zeros for no queries', () => {
    const a: QueryScores = { hitAt5: 1, recallAt5: 0.5, recallAt20: 1, mrrAt10: 1, ndcgAt10: 0.8 };
    const b: QueryScores = { hitAt5: 0, recallAt5: 0, recallAt20: 0.5, mrrAt10: 0, ndcgAt10: 0.2 };
    const mean = meanScores([a, b]);
    expect(mean).toEqual({ hitAt5: 0.5, recallAt5: 0.25, recallAt20: 0.75, mrrAt10: 0.5, ndcgAt10: expect.closeTo(0.5, 12) });
    expect(meanScores([])).toEqual({ hitAt5: 0, recallAt5: 0, recallAt20: 0, mrrAt10: 0, ndcgAt10: 0 });
  });
});

describe('percentile (nearest rank)', () => {
  const twenty = Array.from({ length: 20 }, (_, i) => 20 - i); // 20..1, unsorted on purpose
  it.each([
    { values: [], p: 50, expected: null },
    { values: [5], p: 50, expected: 5 },
    { values: [5], p: 95, expected: 5 },
    { values: [1, 2, 3, 4], p: 50, expected: 2 },
    { values: [1, 2, 3, 4], p: 95, expected: 4 },
    { values: [10, 1, 7, 3, 5], p: 50, expected: 5 },
    { values: [10, 1, 7, 3, 5], p: 0, expected: 1 },
    { values: [10, 1, 7, 3, 5], p: 100, expected: 10 },
    { values: twenty, p: 95, expected: 19 },
    { values: twenty, p: 50, expected: 10 },
  ])('p$p of $values is $expected', ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it.each([-1, 101, Number.NaN])('refuses p = %s', (p) => {
    expect(() => percentile([1], p)).toThrow(/percentile/);
  });
});
