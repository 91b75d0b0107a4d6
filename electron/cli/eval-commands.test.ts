/**
 * `sift eval` end to end on the committed BEIR sample (electron/core/eval/testdata/beir-mini), in
 * keyword mode, through the same entry point as the terminal.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_ID, writeTestModel } from '../core/embed/testing/test-model';
import { tempDir } from '../core/testing/temp';
import { runLines as run } from './testing/run';

const BEIR_MINI = path.resolve(__dirname, '../core/eval/testdata/beir-mini');

const log2 = Math.log2;

/*
 * The keyword ranking `sift eval` produces on beir-mini (asserted below), and the figures worked out
 * by hand from it. Judgements (qrels/test.tsv): q1 d2=2 d1=1; q2 d3=2; q3 d5=2 (d4=0); q4 d5=2 d6=1;
 * q5 only d6=0, so it has no relevant document and is skipped.
 *
 * Function words (is, to, for, when, does, a) are left out of a query that has other terms.
 *
 * q1 "is E_CONN_RESET safe to retry"  → d2, d1       both relevant, best first: every figure 1 (d4
 *     shares only "to" and is not found).
 * q2 "缓存"                            → d3           every figure 1.
 * q3 "token for v1/chat"              → d4, d5       first relevant at rank 2: Hit@5 1, Recall 1/1,
 *     MRR 1/2; nDCG = (2/log2(3)) / (2/log2(2)) = 1/log2(3) = 0.63093.
 * q4 "when does a token expire"       → d5, d4       d6 (no shared word) is never found:
 *     Hit@5 1, Recall@5 = Recall@20 = 1/2, MRR 1; nDCG = (2/log2(2)) / (2/log2(2) + 1/log2(3))
 *     = 2 / 2.63093 = 0.76019.
 * Overall (mean of 4): Hit@5 1; Recall@5 = Recall@20 = (1 + 1 + 1 + 0.5)/4 = 0.875;
 *     MRR@10 = (1 + 1 + 0.5 + 1)/4 = 0.875; nDCG@10 = (1 + 1 + 0.63093 + 0.76019)/4 = 0.84778.
 */
const Q3_NDCG = 1 / log2(3);
const Q4_NDCG = 2 / (2 + 1 / log2(3));
const EXPECTED_OVERALL = { hitAt5: 1, recallAt5: 0.875, recallAt20: 0.875, mrrAt10: 0.875, ndcgAt10: (2 + Q3_NDCG + Q4_NDCG) / 4 };

describe('sift eval', () => {
  it('scores beir-mini in keyword mode with the hand-computed figures', async () => {
    const { code, out, err } = await run('--data-dir', tempDir(), 'eval', BEIR_MINI, '--mode', 'keyword', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({
      dataset: 'beir-mini', format: 'beir', split: 'test', mode: 'keyword', ranMode: 'keyword', topK: 20,
      documents: { indexed: 6, failed: 0 },
      queries: { total: 5, evaluated: 4, skipped: 1 },
      warnings: [],
    });
    expect(report.perQuery.map((q: { id: string; ranking: string[] }) => [q.id, q.ranking])).toEqual([
      ['q1', ['d2', 'd1']],
      ['q2', ['d3']],
      ['q3', ['d4', 'd5']],
      ['q4', ['d5', 'd4']],
    ]);
    for (const [name, value] of Object.entries(EXPECTED_OVERALL)) expect(report.overall[name], name).toBeCloseTo(value, 10);
    expect(report.overall.ndcgAt10).toBeCloseTo(0.84778, 5);
    const byName = Object.fromEntries(report.categories.map((c: { name: string }) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['api-path', 'en-paraphrase', 'error-code', 'zh-2char']);
    expect(byName['api-path'].scores).toEqual({ hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 0.5, ndcgAt10: expect.closeTo(Q3_NDCG, 10) });
    expect(byName['en-paraphrase'].scores).toEqual({ hitAt5: 1, recallAt5: 0.5, recallAt20: 0.5, mrrAt10: 1, ndcgAt10: expect.closeTo(Q4_NDCG, 10) });
    expect(byName['error-code'].scores).toEqual({ hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 1, ndcgAt10: 1 });
    expect(report.latencyMs.p50).toBeGreaterThan(0);
    expect(report.latencyMs.p95).toBeGreaterThanOrEqual(report.latencyMs.p50);
  });

  it('prints a table for people, overall and per category', async () => {
    const { code, out } = await run('--data-dir', tempDir(), 'eval', BEIR_MINI, '--mode', 'keyword');
    expect(code).toBe(0);
    expect(out).toContain('beir-mini (beir format, split test) — keyword search, top 20');
    expect(out).toContain('queries    4 evaluated, 1 skipped (no relevant document in qrels/test.tsv)');
    expect(out).toMatch(/QUERIES\s+Hit@5\s+Recall@5\s+Recall@20\s+MRR@10\s+nDCG@10/);
    expect(out).toMatch(/\nall\s+4\s+1\.000\s+0\.875\s+0\.875\s+0\.875\s+0\.848\n/);
    expect(out).toMatch(/\napi-path\s+1\s+1\.000\s+1\.000\s+1\.000\s+0\.500\s+0\.631\n/);
    expect(out).toMatch(/latency\s+p50 \d+\.\d ms, p95 \d+\.\d ms per query/);
  });

  it('reads another split with --split: q1 (d2 found first) and q4 (d6 never found)', async () => {
    const { code, out } = await run('--data-dir', tempDir(), 'eval', BEIR_MINI, '--mode', 'keyword', '--split', 'dev', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.split).toBe('dev');
    expect(report.queries).toEqual({ total: 5, evaluated: 2, skipped: 3 });
    expect(report.overall).toEqual({ hitAt5: 0.5, recallAt5: 0.5, recallAt20: 0.5, mrrAt10: 0.5, ndcgAt10: 0.5 });
  });

  it('takes the embedding model from the environment, like the other commands (hybrid with the test model)', async () => {
    const modelDir = tempDir();
    await writeTestModel(modelDir);
    const saved = { dir: process.env.SIFT_MODEL_DIR, id: process.env.SIFT_EMBED_MODEL, kind: process.env.SIFT_EMBEDDING };
    Object.assign(process.env, { SIFT_MODEL_DIR: modelDir, SIFT_EMBED_MODEL: TEST_MODEL_ID, SIFT_EMBEDDING: 'transformers' });
    try {
      const { code, out } = await run('--data-dir', tempDir(), 'eval', BEIR_MINI, '--json');
      expect(code).toBe(0);
      const report = JSON.parse(out);
      expect(report).toMatchObject({ mode: 'hybrid', ranMode: 'hybrid', keywordOnlyReason: null, embeddingModel: `transformers:${TEST_MODEL_ID}:q8` });
      expect(report.queries.evaluated).toBe(4);
    } finally {
      for (const [key, value] of [['SIFT_MODEL_DIR', saved.dir], ['SIFT_EMBED_MODEL', saved.id], ['SIFT_EMBEDDING', saved.kind]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('says which splits exist, and refuses bad flags and folders', async () => {
    const data = tempDir();
    expect(await run('--data-dir', data, 'eval', BEIR_MINI, '--split', 'train')).toMatchObject({ code: 1, err: expect.stringMatching(/no split "train" .*it has dev, test \(choose one with --split\)$/) });
    expect(await run('--data-dir', data, 'eval', BEIR_MINI, '--top-k', '0')).toMatchObject({ code: 2, err: 'sift: --top-k must be a whole number from 1 to 50, got 0' });
    expect(await run('--data-dir', data, 'eval', BEIR_MINI, '--mode', 'fuzzy')).toMatchObject({ code: 2, err: 'sift: --mode must be hybrid, keyword or vector, got fuzzy' });
    expect(await run('--data-dir', data, 'eval')).toMatchObject({ code: 2, err: 'sift: expected DATASET, got 0 argument(s). See sift --help.' });
    const empty = tempDir();
    expect(await run('--data-dir', data, 'eval', empty)).toMatchObject({ code: 1, err: expect.stringContaining('is not a dataset: it needs corpus.jsonl (BEIR format) or a docs/ folder') });
  });
});
