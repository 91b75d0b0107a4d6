/**
 * The cross-encoder reranker end to end on the generated tiny cross-encoder (its logit counts the query's words
 * found in the passage), loaded by the real transformers.js tokenizer and ONNX model: ranking, batching, the
 * passage cap, a model that cannot be had (fused order, a clear fallback, remembered with a backoff), cancel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SiftError } from '../../../../shared/errors';
import type { ModelProgress } from '../../../../shared/models';
import { startDeadHub } from '../../embed/testing/dead-hub';
import { tempDir } from '../../testing/temp';
import {
  createCrossEncoderReranker,
  orderByScore,
  type CrossEncoderOptions,
  type CrossEncoderReranker,
} from './cross-encoder';
import { TEST_CROSS_ENCODER_ID, writeTestCrossEncoder } from './testing/test-cross-encoder';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

let modelsDir: string;
beforeAll(async () => {
  modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-crossenc-'));
  await writeTestCrossEncoder(modelsDir);
});
afterAll(() => fs.rmSync(modelsDir, { recursive: true, force: true }));

function reranker(options: Partial<CrossEncoderOptions> = {}): CrossEncoderReranker {
  const base = { modelsDir, modelId: TEST_CROSS_ENCODER_ID, allowDownload: false };
  const made = createCrossEncoderReranker({ ...base, ...options });
  open.push(made);
  return made;
}

const QUERY = 'connection timeout retry';
const PASSAGES = [
  'music and food for the team',
  'a timeout happened on the server',
  'the client will retry after a connection timeout',
  '连接超时以后重试',
  'retry the connection',
];

describe('createCrossEncoderReranker with the tiny cross-encoder', () => {
  // One reranker for the tests that need no special options: starting its worker takes a second or two.
  let shared: CrossEncoderReranker;
  beforeAll(() => {
    shared = createCrossEncoderReranker({ modelsDir, modelId: TEST_CROSS_ENCODER_ID, allowDownload: false });
  });
  afterAll(() => shared.close());

  it('ranks the passage holding the query words first, scores each pair, and keeps every index once', async () => {
    const outcome = await shared.rerank(QUERY, PASSAGES);
    expect(outcome.kind).toBe('cross-encoder');
    expect(outcome.fallback).toBeNull();
    expect(outcome.scores).toEqual([0, 1, 3, 0, 2]);
    expect(outcome.order).toEqual([2, 4, 1, 0, 3]);
    expect([...outcome.order].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(outcome.ms).toBeGreaterThanOrEqual(0);
  });

  it('reads Chinese per character, like the test tokenizer', async () => {
    const outcome = await shared.rerank('连接超时', ['天气很好', '超时', '连接超时以后重试']);
    expect(outcome.scores).toEqual([0, 2, 4]);
    expect(outcome.order).toEqual([2, 1, 0]);
  });

  it('gives the same scores whatever the batch size', async () => {
    const byTwo = await reranker({ batchSize: 2 }).rerank(QUERY, PASSAGES);
    expect(byTwo.scores).toEqual((await shared.rerank(QUERY, PASSAGES)).scores);
    expect(byTwo.scores).toEqual([0, 1, 3, 0, 2]);
  });

  it('reads only the first maxPassageChars characters of a passage', async () => {
    const long = `${'padding words here. '.repeat(10)}connection timeout retry`; // the query's words after 200 chars
    const whole = await shared.rerank(QUERY, [long]);
    const capped = await reranker({ maxPassageChars: 150 }).rerank(QUERY, [long]);
    expect(whole.scores).toEqual([3]);
    expect(capped.scores).toEqual([0]);
  });

  it('ranks no candidates without loading a model', async () => {
    const outcome = await reranker({ modelId: 'nobody/missing' }).rerank(QUERY, []);
    expect(outcome).toMatchObject({ order: [], scores: [], fallback: null });
  });

  it('rejects a malformed model id or option at once', () => {
    expect(() => createCrossEncoderReranker({ modelsDir, modelId: '../etc' })).toThrow(/Reranker model id "\.\.\/etc"/);
    expect(() => createCrossEncoderReranker({ modelsDir, batchSize: 0 })).toThrow(SiftError);
    const tooShort = () => createCrossEncoderReranker({ modelsDir, maxPassageChars: 10 });
    expect(tooShort).toThrow(/maxPassageChars must be an integer from 100/);
  });

  it('orders equal scores and non-numbers by their fused position', () => {
    expect(orderByScore([1, 2, 2, Number.NaN, 1])).toEqual([1, 2, 0, 4, 3]);
    expect(orderByScore([])).toEqual([]);
  });
});

describe('createCrossEncoderReranker without its model', () => {
  it('keeps the fused order with a fallback naming the model and the folder to put it in', async () => {
    const empty = tempDir();
    const progress: ModelProgress[] = [];
    const outcome = await reranker({ modelsDir: empty, modelId: 'nobody/missing', onProgress: (p) => progress.push(p) })
      .rerank(QUERY, PASSAGES);
    expect(outcome.order).toEqual([0, 1, 2, 3, 4]);
    expect(outcome.scores).toEqual([null, null, null, null, null]);
    const why = 'Reranker model "nobody/missing" is not on this computer and downloading is turned off';
    expect(outcome.fallback).toContain(why);
    expect(outcome.fallback).toContain(path.join(empty, 'nobody', 'missing'));
    expect(outcome.fallback).toContain('the passages keep their fused order');
    expect(progress.at(-1)).toEqual({ modelId: 'nobody/missing', status: 'failed', message: outcome.fallback });
  });

  it('remembers a failed download across instances and retries in the background only after the backoff', async () => {
    const dead = await startDeadHub();
    open.push(dead);
    const empty = tempDir();
    const clock = { now: 1_000_000 };
    const options = { modelsDir: empty, allowDownload: true, remoteHost: dead.url, now: () => clock.now };

    const first = await reranker(options).rerank(QUERY, PASSAGES);
    expect(first.fallback).toMatch(/downloading it from http:\/\/127\.0\.0\.1:\d+\/ failed/);
    const tried = dead.requests.length;
    expect(tried).toBeGreaterThan(0);

    // Another search, even in a new process (a new instance reading the models folder): no network, same reason.
    const again = reranker(options);
    expect((await again.rerank(QUERY, PASSAGES)).fallback).toBe(first.fallback);
    expect(dead.requests.length).toBe(tried);

    clock.now += 60_001; // the first backoff is over: one new attempt, in the background
    expect((await again.rerank(QUERY, PASSAGES)).fallback).toBe(first.fallback);
    expect(dead.requests.length).toBe(tried); // the search did not wait for the retry's requests
    await again.settled();
    expect(dead.requests.length).toBeGreaterThan(tried);
    const retried = dead.requests.length;
    expect((await again.rerank(QUERY, PASSAGES)).fallback).toBe(first.fallback); // backing off again (two minutes)
    expect(dead.requests.length).toBe(retried);

    // Once the files are in the folder the note names, the next search uses them.
    await writeTestCrossEncoder(empty);
    const ranked = await again.rerank(QUERY, PASSAGES);
    expect(ranked.fallback).toBeNull();
    expect(ranked.order[0]).toBe(2);
  });
});

describe('createCrossEncoderReranker cancelled', () => {
  it('rejects with cancelled for a signal already aborted, and while the model loads', async () => {
    const ranker = reranker();
    const before = await ranker.rerank(QUERY, PASSAGES, AbortSignal.abort()).catch((e: unknown) => e);
    expect(before).toBeInstanceOf(SiftError);
    expect((before as SiftError).code).toBe('cancelled');

    const controller = new AbortController();
    const during = ranker.rerank(QUERY, PASSAGES, controller.signal);
    controller.abort();
    const error = await during.catch((e: unknown) => e);
    expect((error as SiftError).code).toBe('cancelled');

    // The load went on: the next search ranks.
    expect((await ranker.rerank(QUERY, PASSAGES)).order).toEqual([2, 4, 1, 0, 3]);
  });

  it('stops scoring when cancelled while it scores', async () => {
    const ranker = reranker({ batchSize: 1 });
    await ranker.rerank(QUERY, PASSAGES.slice(0, 1)); // loaded
    const controller = new AbortController();
    const many = Array.from({ length: 200 }, (_, i) => `${PASSAGES[i % PASSAGES.length]} ${i}`);
    const running = ranker.rerank(QUERY, many, controller.signal);
    setTimeout(() => controller.abort(), 0); // after the first batch has gone to ONNX Runtime
    const error = await running.catch((e: unknown) => e);
    expect((error as SiftError).code).toBe('cancelled');
  });
});
