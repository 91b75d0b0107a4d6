import { describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { maximalMarginalRelevance, mergeAdjacent, reciprocalRankFusion, type ChunkPlace, type StageHit } from './fusion';

/** Stage hits from chunk ids, scored so a test can check the score travels with the chunk. */
const stage = (ids: number[], scoreOf = (id: number) => id / 10): StageHit[] => ids.map((chunkId) => ({ chunkId, score: scoreOf(chunkId) }));

/** A list of `length` filler chunks (ids from 10_000 up) with `placed` chunk ids at given 1-based ranks. */
function listWith(length: number, placed: Record<number, number>): StageHit[] {
  return Array.from({ length }, (_, i) => ({ chunkId: placed[i + 1] ?? 10_000 + i, score: i }));
}

describe('reciprocalRankFusion', () => {
  // [name, keyword, vector, k, expected rows: [chunkId, keywordRank, vectorRank, rrf]]
  const rows: [string, StageHit[] | null, StageHit[] | null, number | undefined, [number, number | null, number | null, number][]][] = [
    [
      'two overlapping lists, worked by hand with k = 60',
      stage([1, 2, 3]),
      stage([3, 1, 4]),
      undefined,
      [
        [1, 1, 2, 1 / 61 + 1 / 62],
        [3, 3, 1, 1 / 63 + 1 / 61],
        [2, 2, null, 1 / 62],
        [4, null, 3, 1 / 63],
      ],
    ],
    [
      'duplicates within a list keep the first occurrence and do not push later hits down',
      stage([5, 5, 6, 5]),
      null,
      undefined,
      [
        [5, 1, null, 1 / 61],
        [6, 2, null, 1 / 62],
      ],
    ],
    ['keyword list null: vector ranks only', null, stage([8, 9]), undefined, [[8, null, 1, 1 / 61], [9, null, 2, 1 / 62]]],
    ['vector list empty: keyword ranks only', stage([4]), [], undefined, [[4, 1, null, 1 / 61]]],
    ['both null: nothing', null, null, undefined, []],
    ['both empty: nothing', [], [], undefined, []],
    ['equal rrf and equal best rank: lower chunk id first', stage([10]), stage([7]), undefined, [[7, null, 1, 1 / 61], [10, 1, null, 1 / 61]]],
    ['k = 1 widens the gap between ranks', stage([1, 2]), null, 1, [[1, 1, null, 1 / 2], [2, 2, null, 1 / 3]]],
  ];

  it.each(rows)('%s', (_name, keyword, vector, k, expected) => {
    const fused = reciprocalRankFusion(keyword, vector, k);
    expect(fused.map((h) => [h.chunkId, h.keywordRank, h.vectorRank])).toEqual(expected.map(([id, kr, vr]) => [id, kr, vr]));
    fused.forEach((hit, i) => expect(hit.rrf).toBeCloseTo(expected[i]![3], 15));
  });

  it('carries each stage score and uses null, not 0, where a stage missed the chunk', () => {
    const [both, keywordOnly, vectorOnly] = reciprocalRankFusion([{ chunkId: 1, score: 7.5 }, { chunkId: 2, score: 0 }], [{ chunkId: 1, score: 0.25 }, { chunkId: 3, score: 0.5 }]);
    expect(both).toEqual({ chunkId: 1, rrf: 1 / 61 + 1 / 61, keywordRank: 1, keywordScore: 7.5, vectorRank: 1, vectorDistance: 0.25 });
    expect(keywordOnly).toMatchObject({ chunkId: 2, keywordScore: 0, vectorRank: null, vectorDistance: null });
    expect(vectorOnly).toMatchObject({ chunkId: 3, keywordRank: null, keywordScore: null, vectorDistance: 0.5 });
  });

  it('treats mathematically equal sums as ties even when floating point rounds them apart, then prefers the best single rank', () => {
    // 1/63 + 1/234 and 1/210 + 1/65 are both 1/49.636…, but round to different doubles.
    expect(1 / 63 + 1 / 234).not.toBe(1 / 210 + 1 / 65);
    const keyword = listWith(174, { 3: 900, 150: 100 });
    const vector = listWith(174, { 174: 900, 5: 100 });
    const ids = reciprocalRankFusion(keyword, vector).map((h) => h.chunkId);
    expect(ids.indexOf(900)).toBeLessThan(ids.indexOf(100));
  });

  it('is repeatable: the same input gives the same order', () => {
    const keyword = stage([3, 1, 2, 9, 8]);
    const vector = stage([8, 2, 7, 1]);
    expect(reciprocalRankFusion(keyword, vector)).toEqual(reciprocalRankFusion([...keyword], [...vector]));
  });

  it.each([0, 0.5, 1001, Number.NaN])('refuses k = %s', (k) => {
    expect(() => reciprocalRankFusion([], [], k)).toThrow(SiftError);
  });
});

describe('maximalMarginalRelevance', () => {
  const unit = (...v: number[]): Float32Array => {
    const n = Math.hypot(...v);
    return Float32Array.from(v.map((x) => x / n));
  };
  // A and its near-duplicate B are the most relevant; C is less relevant but says something else.
  const hits = [
    { chunkId: 1, rrf: 0.033, name: 'A' },
    { chunkId: 2, rrf: 0.032, name: 'B (near-duplicate of A)' },
    { chunkId: 3, rrf: 0.03, name: 'C (different)' },
    { chunkId: 4, rrf: 0.029, name: 'D (no vector)' },
  ];
  const vectors = new Map([
    [1, unit(1, 0, 0)],
    [2, unit(0.99, 0.14, 0)],
    [3, unit(0, 0, 1)],
  ]);

  // [name, limit, lambda, expected chunk ids]
  const rows: [string, number, number | undefined, number[]][] = [
    ['λ = 0.5 picks the different chunk over the near-duplicate', 2, undefined, [1, 3]],
    ['λ = 0.5 ranks the near-duplicate last, after the chunk without a vector', 4, 0.5, [1, 3, 4, 2]],
    ['λ = 1 is plain relevance order', 4, 1, [1, 2, 3, 4]],
    ['λ = 0 starts with the first hit, then the least similar', 2, 0, [1, 3]],
    ['limit 0 picks nothing', 0, 0.5, []],
    ['limit above the candidate count returns all of them', 10, 1, [1, 2, 3, 4]],
  ];

  it.each(rows)('%s', (_name, limit, lambda, expected) => {
    expect(maximalMarginalRelevance(hits, vectors, limit, lambda).map((h) => h.chunkId)).toEqual(expected);
  });

  it('orders by rrf at λ = 1 even when the input is not sorted, ties going to the earlier hit', () => {
    const shuffled = [
      { chunkId: 7, rrf: 0.01 },
      { chunkId: 5, rrf: 0.02 },
      { chunkId: 9, rrf: 0.02 },
      { chunkId: 6, rrf: 0.03 },
    ];
    expect(maximalMarginalRelevance(shuffled, new Map(), 4, 1).map((h) => h.chunkId)).toEqual([6, 5, 9, 7]);
  });

  it('gives every candidate full relevance when all rrf are equal, so novelty decides', () => {
    const equal = [
      { chunkId: 1, rrf: 0.02 },
      { chunkId: 2, rrf: 0.02 },
      { chunkId: 3, rrf: 0.02 },
    ];
    const vecs = new Map([
      [1, unit(1, 0)],
      [2, unit(1, 0.01)],
      [3, unit(0, 1)],
    ]);
    expect(maximalMarginalRelevance(equal, vecs, 3).map((h) => h.chunkId)).toEqual([1, 3, 2]);
  });

  it('returns the caller’s own objects', () => {
    expect(maximalMarginalRelevance(hits, vectors, 1)[0]).toBe(hits[0]);
  });

  it.each([
    ['λ below 0', 4, -0.1],
    ['λ above 1', 4, 1.5],
    ['λ not a number', 4, Number.NaN],
    ['negative limit', -1, 0.5],
    ['fractional limit', 1.5, 0.5],
  ])('refuses %s', (_name, limit, lambda) => {
    expect(() => maximalMarginalRelevance(hits, vectors, limit, lambda)).toThrow(SiftError);
  });

  it('refuses vectors of different lengths (a mixed-model index)', () => {
    const mixed = new Map([
      [1, unit(1, 0, 0)],
      [2, unit(1, 0)],
    ]);
    expect(() => maximalMarginalRelevance(hits, mixed, 2)).toThrow(/different lengths/);
  });

  it('picks what comparing every pick with every hit left picks, ties and negative similarities included', () => {
    // The definition, spelled out: after each pick, every hit left is compared with it.
    const everyPair = (list: typeof many, vecs: Map<number, Float32Array>, limit: number, lambda: number): number[] => {
      const rel = list.map((h) => h.rrf);
      const [min, max] = [Math.min(...rel), Math.max(...rel)];
      const relevance = rel.map((r) => (max > min ? (r - min) / (max - min) : 1));
      const cos = (a: Float32Array, b: Float32Array): number => {
        const dot = a.reduce((sum, x, k) => sum + x * b[k]!, 0);
        const norms = a.reduce((sum, x) => sum + x * x, 0) * b.reduce((sum, x) => sum + x * x, 0);
        return norms === 0 ? 0 : dot / Math.sqrt(norms);
      };
      const closest = list.map(() => 0);
      const left = list.map((_, i) => i);
      const picked: number[] = [];
      while (picked.length < limit && left.length > 0) {
        let at = 0;
        left.forEach((i, k) => {
          const score = (j: number) => lambda * relevance[j]! - (1 - lambda) * (picked.length ? closest[j]! : 0);
          if (score(i) > score(left[at]!)) at = k;
        });
        const [chosen] = left.splice(at, 1) as [number];
        picked.push(chosen);
        for (const i of left) {
          const [a, b] = [vecs.get(list[chosen]!.chunkId), vecs.get(list[i]!.chunkId)];
          const similarity = a && b ? cos(a, b) : 0;
          closest[i] = picked.length === 1 ? similarity : Math.max(closest[i]!, similarity);
        }
      }
      return picked.map((i) => list[i]!.chunkId);
    };
    let seed = 17;
    const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    let many: { chunkId: number; rrf: number }[] = [];
    for (let run = 0; run < 400; run++) {
      // Few relevance levels and a small pool of shared vectors make ties; coordinates of both signs, negative similarities.
      many = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) => ({ chunkId: i + 1, rrf: Math.floor(random() * 4) / 4 }));
      const pool = Array.from({ length: 3 }, () => Float32Array.from({ length: 3 }, () => random() * 2 - 1));
      const vecs = new Map<number, Float32Array>();
      for (const h of many) {
        if (random() < 0.1) continue;
        vecs.set(h.chunkId, random() < 0.4 ? pool[Math.floor(random() * 3)]! : Float32Array.from({ length: 3 }, () => random() * 2 - 1));
      }
      const lambda = [0, 0.3, 0.5, 1][Math.floor(random() * 4)]!;
      const limit = Math.floor(random() * (many.length + 2));
      const ids = maximalMarginalRelevance(many, vecs, limit, lambda).map((h) => h.chunkId);
      expect(ids, `run ${run}`).toEqual(everyPair(many, vecs, limit, lambda));
    }
  });
});

describe('mergeAdjacent', () => {
  const place = (chunkId: number, pageId: number, start: number, end: number): [number, ChunkPlace] => [chunkId, { chunkId, pageId, start, end }];
  const hit = (chunkId: number) => ({ chunkId });

  // [name, places, hit order, expected passages as [pageId, start, end, chunk ids]]
  const rows: [string, [number, ChunkPlace][], number[], [number, number, number, number[]][]][] = [
    ['overlapping spans merge', [place(1, 1, 0, 100), place(2, 1, 80, 180)], [2, 1], [[1, 0, 180, [2, 1]]]],
    ['touching spans merge (end equals next start)', [place(1, 1, 0, 100), place(2, 1, 100, 200)], [1, 2], [[1, 0, 200, [1, 2]]]],
    ['separate spans stay apart', [place(1, 1, 0, 100), place(2, 1, 101, 200)], [2, 1], [[1, 101, 200, [2]], [1, 0, 100, [1]]]],
    ['same spans on different pages stay apart', [place(1, 1, 0, 100), place(2, 2, 0, 100)], [1, 2], [[1, 0, 100, [1]], [2, 0, 100, [2]]]],
    ['a chain of touching chunks becomes one passage', [place(1, 1, 0, 10), place(2, 1, 20, 30), place(3, 1, 10, 20)], [2, 1, 3], [[1, 0, 30, [2, 1, 3]]]],
    ['a span inside another keeps the outer end', [place(1, 1, 0, 100), place(2, 1, 10, 20), place(3, 1, 100, 120)], [2, 3, 1], [[1, 0, 120, [2, 3, 1]]]],
    [
      'passages follow their best hit',
      [place(1, 1, 0, 10), place(2, 1, 50, 60), place(3, 2, 0, 10), place(4, 1, 10, 20)],
      [3, 2, 4, 1],
      [[2, 0, 10, [3]], [1, 50, 60, [2]], [1, 0, 20, [4, 1]]],
    ],
    ['a chunk without a place is left out', [place(1, 1, 0, 10)], [9, 1], [[1, 0, 10, [1]]]],
    ['a chunk listed twice counts once', [place(1, 1, 0, 10), place(2, 1, 10, 20)], [1, 2, 1], [[1, 0, 20, [1, 2]]]],
    ['no hits, no passages', [place(1, 1, 0, 10)], [], []],
  ];

  it.each(rows)('%s', (_name, places, order, expected) => {
    const merged = mergeAdjacent(order.map(hit), new Map(places));
    expect(merged.map((p) => [p.pageId, p.start, p.end, p.hits.map((h) => h.chunkId)])).toEqual(expected);
  });
});
