/**
 * Deleting a knowledge base while it is being indexed: the run stops at its next batch with a
 * `cancelled` status, no index file is left behind or created again, and nothing logs a TypeError —
 * whether the run is in this process or in a CLI ingest in another one.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IngestStatus } from '../../../shared/models';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { call, openCore, runCli, waitFor, writeCorpus } from './testing/fixtures';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
  vi.restoreAllMocks();
});

/** The files of knowledge base `id` under the data folder (its database, WAL and shared memory). */
function kbFiles(dataDir: string, id: string): string[] {
  const dir = path.join(dataDir, 'kbs');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(id)) : [];
}

/** Documents committed so far to knowledge base `id` (read through a separate connection), 0 when none yet. */
function committed(dataDir: string, id: string): number {
  try {
    const db = new Database(path.join(dataDir, 'kbs', `${id}.sqlite`), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`SELECT count(*) FROM documents`).pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

const DELETED = 'the knowledge base was deleted while it was being indexed; nothing of it was kept';

describe('deleting a knowledge base during its ingest', () => {
  it('stops the run in this process as cancelled, leaves no index file, and logs no error', async () => {
    const folder = tempDir();
    writeCorpus(folder, { small: 400, large: 0, seed: 12 });
    const dataDir = tempDir();
    const sift = openCore(dataDir, { indexer: { batchFiles: 4, workers: 1, concurrency: 1 } });
    open.push(sift);
    const kb = await call(sift, 'kb.create', { name: 'Doomed' });
    await call(sift, 'folder.add', { kb: kb.id, path: folder });
    const errors = vi.spyOn(console, 'error');
    const events: IngestStatus[] = [];
    sift.onEvent((name, payload) => name === 'ingest.progress' && events.push(payload as IngestStatus));

    const running = sift.ingest(kb.id);
    await waitFor(() => events.some((e) => e.state === 'indexing' && e.filesIndexed > 0), 30_000, 'the first batch');
    await call(sift, 'kb.delete', { kb: kb.id });
    const status = await running;

    expect(status).toMatchObject({ kbId: kb.id, state: 'cancelled', error: DELETED, pages: 0 });
    expect(status.filesDone).toBeLessThan(400);
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything late would write now
    expect(kbFiles(dataDir, kb.id)).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(await sift.invoke('ingest.status', { kb: kb.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  }, 60_000);

  it('a CLI ingest in another process notices its knowledge base is gone and reports it instead of done', async () => {
    const folder = tempDir();
    writeCorpus(folder, { small: 3000, large: 0, seed: 13 });
    const dataDir = tempDir();
    const sift = openCore(dataDir);
    open.push(sift);
    const kb = await call(sift, 'kb.create', { name: 'Shared' });
    await call(sift, 'folder.add', { kb: kb.id, path: folder });

    const cli = runCli(['--data-dir', dataDir, 'ingest', 'Shared', '--json'], { env: { SIFT_EMBEDDING: 'none' }, timeoutMs: 120_000 });
    await waitFor(() => committed(dataDir, kb.id) > 0, 60_000, 'the CLI committing its first batch', 5);
    await call(sift, 'kb.delete', { kb: kb.id });
    const run = await cli;

    expect(run.stderr).not.toMatch(/TypeError/);
    expect(run.code).toBe(1);
    const status = JSON.parse(run.stdout) as IngestStatus;
    expect(status).toMatchObject({ kbId: kb.id, state: 'cancelled', error: DELETED });
    expect(status.filesDone).toBeLessThan(3000);
    expect(kbFiles(dataDir, kb.id)).toEqual([]);
  }, 150_000);
});
