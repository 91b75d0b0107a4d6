/**
 * The worker client against a real worker thread running a scripted stand-in (testing/scripted-worker.mjs),
 * so crashes, exits and failed batches happen for real.
 */
import { threadId } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { EmbedWorkerClient, ModelLoadError } from './worker-client';
import type { ProgressReply } from './worker-protocol';

const SCRIPT = new URL('./testing/scripted-worker.mjs', import.meta.url);
const open: EmbedWorkerClient[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

function start(startMode: 'ready' | 'load-failed' | 'exit' = 'ready', onProgress?: (p: ProgressReply) => void, ignoreClose = false) {
  const worker = new Worker(SCRIPT, { workerData: { start: startMode, ignoreClose } });
  const client = new EmbedWorkerClient(worker, { label: 'test model', onProgress });
  open.push(client);
  return client;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SiftError);
  return (error as SiftError).code;
}

describe('EmbedWorkerClient', () => {
  it('reports ready with the worker thread id, forwards progress, and answers batches in call order', async () => {
    const progress: ProgressReply[] = [];
    const client = start('ready', (p) => progress.push(p));
    const ready = await client.ready;
    expect(ready.dimension).toBe(2);
    expect(ready.threadId).not.toBe(threadId);
    expect(progress).toEqual([{ type: 'progress', status: 'loading', file: 'config.json' }]);
    const [a, b] = await Promise.all([client.embed(['x', 'yy']), client.embed(['zzz'])]);
    expect(a?.map((v) => Array.from(v))).toEqual([
      [1, ready.threadId],
      [2, ready.threadId],
    ]);
    expect(b?.map((v) => v[0])).toEqual([3]);
  });

  it('rejects only the failed batch; the worker keeps serving the next one', async () => {
    const client = start();
    await client.ready;
    const failed = client.embed(['fail']);
    const next = client.embed(['ok']);
    expect(await codeOf(failed)).toBe('internal');
    await expect(failed).rejects.toThrow(/scripted failure/);
    expect((await next).map((v) => v[0])).toEqual([2]);
  });

  it('a crash rejects the running batch, the queued ones and every later call', async () => {
    const client = start();
    await client.ready;
    const running = client.embed(['crash']);
    const queued = codeOf(client.embed(['never']));
    await expect(running).rejects.toThrow(/stopped unexpectedly \(it threw: scripted crash\)/);
    expect(await queued).toBe('internal');
    expect(await codeOf(client.embed(['later']))).toBe('internal');
  });

  it('an exit mid-batch is reported with its exit code', async () => {
    const client = start();
    await client.ready;
    await expect(client.embed(['exit'])).rejects.toThrow(/exited with code 7/);
  });

  it('a load failure rejects ready with ModelLoadError and its reason', async () => {
    const client = start('load-failed');
    await expect(client.ready).rejects.toBeInstanceOf(ModelLoadError);
    await expect(client.ready).rejects.toThrow('scripted load failure');
    await expect(client.embed(['x'])).rejects.toBeInstanceOf(ModelLoadError);
  });

  it('a worker that exits before it is ready rejects ready instead of hanging', async () => {
    const client = start('exit');
    await expect(client.ready).rejects.toThrow(/exited with code 3/);
  });

  it('close() cancels waiting batches and refuses new ones', async () => {
    const client = start();
    const waiting = codeOf(client.embed(['queued before ready']));
    await client.close();
    expect(await waiting).toBe('cancelled');
    expect(await codeOf(client.embed(['after']))).toBe('cancelled');
    await client.close(); // twice is harmless
  });

  it('close() lets the worker finish the batch in hand and exit on its own, never terminated mid-run', async () => {
    const client = start();
    await client.ready;
    const running = codeOf(client.embed(['slow']));
    const started = Date.now();
    await client.close();
    expect(await running).toBe('cancelled');
    expect(client.exitCode).toBe(0); // terminate() would give 1
    expect(Date.now() - started).toBeGreaterThanOrEqual(250); // it waited for the batch
  });

  it('close() terminates a worker that does not exit within the grace period', async () => {
    const client = start('ready', undefined, true);
    await client.ready;
    await client.close(200);
    expect(client.exitCode).toBe(1);
    expect(await codeOf(client.embed(['after']))).toBe('cancelled');
  });
});
