/**
 * The embedding service without a reachable model host: a failed load is remembered (in memory and
 * in the models folder, for the next CLI process), so searches do not wait on the network again
 * until the backoff is over, the person asks to retry, or the model's files appear on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDeadHub, type DeadHub } from './testing/dead-hub';
import { writeTestModel, TEST_MODEL_ID } from './testing/test-model';
import { EmbeddingService, type EmbeddingConfig, type ModelsFolder } from './embedding';
import { EventBus } from '../base/events';
import { tempDir } from '../testing/temp';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function hub(): Promise<DeadHub> {
  const started = await startDeadHub();
  open.push(started);
  return started;
}

/** A service on `models` with a clock the test moves. */
function service(config: EmbeddingConfig, models: string | ModelsFolder, clock: { now: number }) {
  const svc = new EmbeddingService(() => config, models, new EventBus(), { now: () => clock.now });
  open.push(svc);
  return svc;
}

const MINUTE = 60_000;

describe('EmbeddingService when the model host gives nothing', () => {
  it('remembers the failure across instances, backs off, and tries again when due or asked', async () => {
    const dead = await hub();
    const models = tempDir();
    const config: EmbeddingConfig = { provider: 'transformers', modelId: TEST_MODEL_ID, remoteHost: dead.url };
    const clock = { now: 1_000_000 };

    const first = await service(config, models, clock).get();
    expect(typeof first).toBe('string');
    const tried = dead.requests.length;
    expect(tried).toBeGreaterThan(0);

    // The next search in this process, and in the next CLI process: no network, the same reason, at once.
    const same = service(config, models, clock);
    const t0 = performance.now();
    expect(await same.get()).toBe(first);
    expect(await same.get()).toBe(first);
    expect(performance.now() - t0).toBeLessThan(50);
    expect(dead.requests.length).toBe(tried);

    clock.now += MINUTE + 1; // the first backoff is over: one new attempt, in the background
    const t1 = performance.now();
    expect(await same.get()).toBe(first);
    expect(performance.now() - t1).toBeLessThan(50);
    await same.settled();
    const retried = dead.requests.length;
    expect(retried).toBeGreaterThan(tried);

    clock.now += MINUTE + 1; // the second wait is twice as long
    await same.get();
    await same.settled();
    expect(dead.requests.length).toBe(retried);
    clock.now += MINUTE;
    await same.get();
    await same.settled();
    expect(dead.requests.length).toBeGreaterThan(retried);

    const beforeAsk = dead.requests.length;
    same.retry(); // the person re-indexed or asked to try again: this attempt is waited for
    expect(typeof (await same.get())).toBe('string');
    expect(dead.requests.length).toBeGreaterThan(beforeAsk);
  }, 60_000); // four real load attempts, each starting a worker

  it('uses the model as soon as its files are put in the folder the note names', async () => {
    const dead = await hub();
    const models = tempDir();
    const config: EmbeddingConfig = { provider: 'transformers', modelId: TEST_MODEL_ID, remoteHost: dead.url };
    const svc = service(config, models, { now: 0 });
    const reason = await svc.get();
    expect(reason).toContain(`the folder ${path.join(models, ...TEST_MODEL_ID.split('/'))}`);
    expect(reason).toContain('SIFT_EMBEDDING=none');

    await writeTestModel(models);
    const tried = dead.requests.length;
    const embedder = await svc.get();
    expect(typeof embedder).not.toBe('string');
    expect(dead.requests.length).toBe(tried);
  });

  it('a read-only models folder gets nothing written, and the failure is still remembered in memory', async () => {
    const dead = await hub();
    const models = path.join(tempDir(), 'models');
    const config: EmbeddingConfig = { provider: 'transformers', modelId: TEST_MODEL_ID, remoteHost: dead.url };
    const svc = service(config, { dir: models, downloadDir: tempDir() }, { now: 0 });
    expect(typeof (await svc.get())).toBe('string');
    const tried = dead.requests.length;
    await svc.get();
    expect(dead.requests.length).toBe(tried);
    expect(fs.existsSync(models)).toBe(false);
  });
});
