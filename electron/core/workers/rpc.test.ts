/**
 * WorkerClient against a real worker thread served by the real serveRequests (testing/scripted-rpc-worker.ts):
 * answers, and the two ways of closing — terminate, or ask the worker to finish and exit on its own.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerClient } from './rpc';

const ENTRY = new URL('./entry.mjs', import.meta.url);
const SCRIPT = new URL('./testing/scripted-rpc-worker.ts', import.meta.url).href;
const open: WorkerClient<{ wait: number }, { waited: number }>[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

function start(options: { closeMs?: number; hangOnClose?: boolean } = {}) {
  const worker = new Worker(ENTRY, { workerData: { siftWorkerModule: SCRIPT, ...options } });
  const client = new WorkerClient<{ wait: number }, { waited: number }>(worker, 'the test worker');
  open.push(client);
  return client;
}

describe('WorkerClient', () => {
  it('answers requests, in any order', async () => {
    const client = start();
    const [slow, fast] = await Promise.all([client.call({ wait: 60 }), client.call({ wait: 0 })]);
    expect([slow.waited, fast.waited]).toEqual([60, 0]);
  });

  it('closeGracefully rejects what is in flight at once, lets the worker finish it, clean up and exit on its own', async () => {
    const client = start({ closeMs: 100 });
    await client.call({ wait: 0 }); // started
    const running = client.call({ wait: 300 }).then(() => 'answered', (e: Error) => e.message);
    const started = Date.now();
    await client.closeGracefully();
    expect(await running).toBe('the test worker was closed');
    expect(client.exitCode).toBe(0); // terminate() would give 1
    expect(Date.now() - started).toBeGreaterThanOrEqual(350); // the request in hand, then onClose
    await expect(client.call({ wait: 0 })).rejects.toThrow('the test worker was closed');
  });

  it('closeGracefully terminates a worker whose clean-up does not end within the grace period', async () => {
    const client = start({ hangOnClose: true });
    await client.call({ wait: 0 });
    await client.closeGracefully(200);
    expect(client.exitCode).toBe(1);
  });

  it('close terminates at once', async () => {
    const client = start();
    await client.call({ wait: 0 });
    await client.close();
    expect(client.exitCode).toBe(1);
  });
});
