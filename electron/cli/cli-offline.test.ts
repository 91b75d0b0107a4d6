/**
 * The CLI without a reachable model host: `sift search` prints the keyword-only note once, on
 * stderr (stdout is just the results), without going to the network again; `sift eval` without
 * `--data-dir` writes nothing into the person's data folder and names no temporary folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startDeadHub, type DeadHub } from '../core/embed/testing/dead-hub';
import { tempDir } from '../core/testing/temp';
import { runCli } from './main';

const BEIR_MINI = path.resolve(__dirname, '../core/eval/testdata/beir-mini');

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err };
}

let hub: DeadHub;
beforeEach(async () => {
  hub = await startDeadHub();
  vi.stubEnv('SIFT_EMBEDDING', 'transformers');
  vi.stubEnv('SIFT_EMBED_MODEL', 'sift-test/not-here');
  vi.stubEnv('SIFT_MODEL_DIR', '');
  vi.stubEnv('SIFT_MODEL_HOST', hub.url);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await hub.close();
});

describe('sift search with no model to be had', () => {
  it('prints the note once on stderr, results alone on stdout, and makes no new network attempt', async () => {
    const data = tempDir();
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'retry.md'), '# Retries\n\nE_CONN_RESET is safe to retry after a short wait.\n');
    await run('--data-dir', data, 'kb', 'create', 'Notes');
    await run('--data-dir', data, 'folder', 'add', 'Notes', docs);
    expect((await run('--data-dir', data, 'ingest', 'Notes')).code).toBe(0);
    const tried = hub.requests.length;
    expect(tried).toBeGreaterThan(0); // indexing tried the model once

    const search = await run('--data-dir', data, 'search', 'Notes', 'E_CONN_RESET');
    expect(search.code).toBe(0);
    expect(hub.requests.length).toBe(tried);
    expect(search.out).toMatch(/^\[1\] Retries/);
    expect(search.out).not.toMatch(/keyword-only|Embedding model/);
    expect(search.out).toMatch(/keyword search, [\d.]+ ms$/);
    expect(search.err).toHaveLength(1);
    expect(search.err[0]).toContain('keyword-only');
    expect(search.err[0]).toContain(`the folder ${path.join(data, 'models', 'sift-test', 'not-here')}`);
    expect(search.err[0]).toContain('SIFT_EMBEDDING=none');
  });
});

describe('sift eval without --data-dir', () => {
  it('creates nothing in the data folder and names no temporary folder in its note', async () => {
    const home = tempDir();
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
    vi.stubEnv('SIFT_DATA_DIR', '');
    const dataDir = path.join(home, '.config', 'Sift');

    const { code, out } = await run('eval', BEIR_MINI, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.ranMode).toBe('keyword');
    expect(report.keywordOnlyReason).toContain(`the folder ${path.join(dataDir, 'models', 'sift-test', 'not-here')}`);
    expect(report.keywordOnlyReason).not.toContain('sift-eval-');
    expect(fs.readdirSync(home)).toEqual([]);
  });
});
