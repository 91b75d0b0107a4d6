/**
 * Watching folders (`createSift({ watch: true })`): a new, changed or deleted file is reflected in
 * search within about two seconds without a manual run, and a folder removed while watched is
 * reported without stopping the other folders.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestStatus } from '../../../shared/models';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, recordProgress, waitFor, writeFiles } from './testing/fixtures';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

/** The promise: a saved change is searchable within this time. */
const WITHIN_MS = 2000;

async function keywordHits(sift: Sift, kb: string, query: string): Promise<string[]> {
  return (await call(sift, 'search.query', { kb, query, mode: 'keyword' })).passages.map((p) => p.pagePath);
}

/**
 * Index `folders` into a new knowledge base with a non-watching core, then reopen the data folder
 * with a watching one. Returns the watching core and the knowledge base id.
 */
async function watchingCore(folders: string[]): Promise<{ sift: Sift; kb: string }> {
  const dataDir = tempDir();
  const first = openCore(dataDir);
  const kb = await makeKb(first, 'Watched', folders);
  await first.ingest(kb);
  await first.close();
  const sift = openCore(dataDir, { watch: true });
  open.push(sift);
  return { sift, kb };
}

/**
 * The core starts its watchers without a "ready" signal, and a file written before a watcher is
 * ready would be missed. A sub-folder removed asks for a full run (see watcher.ts), which shows up
 * as a finished `ingest.progress` event, yet reads no file, so it proves the watcher is live without
 * indexing anything. Create and remove one until such a run is seen.
 */
async function untilWatching(sift: Sift, kb: string, folder: string): Promise<void> {
  let runs = 0;
  const stop = sift.onEvent((name, payload) => {
    if (name === 'ingest.progress' && (payload as IngestStatus).kbId === kb && (payload as IngestStatus).state === 'done') runs++;
  });
  try {
    for (let n = 0; runs === 0; n++) {
      if (n === 40) throw new Error(`the watcher of ${folder} never reported a change`);
      const probe = path.join(folder, `watch-probe-${n}`);
      fs.mkdirSync(probe);
      await new Promise((resolve) => setTimeout(resolve, 100));
      fs.rmdirSync(probe);
      await waitFor(() => runs > 0, 400, 'a run').catch(() => undefined);
    }
  } finally {
    stop();
  }
}

describe('watching folders', () => {
  // The first file after start-up is the slowest: the ingest worker is still starting (see Indexer.warm).
  it('makes the first new file searchable within 2 s of start-up, and follows a changed and a deleted file', async () => {
    const root = tempDir();
    writeFiles(root, { 'alpha.md': '# Alpha\n\noriginalword stays here\n', 'beta.md': '# Beta\n\ndoomedword\n' });
    const { sift, kb } = await watchingCore([root]);
    await untilWatching(sift, kb, root);

    fs.writeFileSync(path.join(root, 'fresh.md'), '# Fresh\n\nzebrafinch42 is a word in no other file\n');
    const addedMs = await waitFor(async () => (await keywordHits(sift, kb, 'zebrafinch42')).includes('wiki/fresh.md'), WITHIN_MS, 'the new file in search');

    fs.writeFileSync(path.join(root, 'alpha.md'), '# Alpha\n\nreplacementword now\n');
    const changedMs = await waitFor(
      async () => (await keywordHits(sift, kb, 'replacementword')).includes('wiki/alpha.md') && (await keywordHits(sift, kb, 'originalword')).length === 0,
      WITHIN_MS,
      'the changed file in search',
    );

    fs.rmSync(path.join(root, 'beta.md'));
    const deletedMs = await waitFor(async () => !(await sift.invoke('pages.get', { kb, path: 'wiki/beta.md' })).ok, WITHIN_MS, 'the deleted file gone');
    expect(await keywordHits(sift, kb, 'doomedword')).toEqual([]);
    console.info(`watch latency: added ${addedMs.toFixed(0)} ms, changed ${changedMs.toFixed(0)} ms, deleted ${deletedMs.toFixed(0)} ms`);
  });

  it('skips a FIFO, a link to /dev/zero and a link out that appear while watched, and still closes', async (ctx) => {
    const root = tempDir();
    writeFiles(root, { 'alpha.md': '# Alpha\n\nalphaword\n' });
    if (spawnSync('mkfifo', [path.join(tempDir(), 'probe')]).status !== 0 || !fs.existsSync('/dev/zero')) ctx.skip();
    const { sift, kb } = await watchingCore([root]);
    await untilWatching(sift, kb, root);
    spawnSync('mkfifo', [path.join(root, 'late-pipe.md')]);
    fs.symlinkSync('/dev/zero', path.join(root, 'late-zero.md'));
    fs.symlinkSync(path.join(tempDir(), 'nowhere'), path.join(root, 'dangling.md'));
    const outside = tempDir();
    writeFiles(outside, { 'secret.md': '# Secret\n\nsecretword\n' });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'late-out.md'));
    fs.writeFileSync(path.join(root, 'fresh.md'), '# Fresh\n\nfreshword\n');
    const reasons = async () => (await call(sift, 'ingest.status', { kb })).problems.map((p) => `${p.relPath}: ${p.reason}`);
    await waitFor(async () => (await reasons()).length === 3 && (await keywordHits(sift, kb, 'freshword')).length === 1, 10_000, 'three skipped');
    expect(await reasons()).toEqual([
      'late-out.md: a link to outside the folder (links out are not followed for this folder)',
      'late-pipe.md: not a regular file: a FIFO (named pipe)',
      'late-zero.md: not a regular file: a character device',
    ]);
    expect(await keywordHits(sift, kb, 'secretword')).toEqual([]);
    open.splice(open.indexOf(sift), 1);
    const closed = await Promise.race([sift.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('hung'), 10_000))]);
    expect(closed).toBe('closed');
  }, 30_000);

  it('reports a watched folder that was removed, and keeps the other folder working', async () => {
    const kept = tempDir();
    const doomed = path.join(tempDir(), 'doomed-folder');
    writeFiles(kept, { 'keep.md': '# Keep\n\nkeptword\n' });
    writeFiles(doomed, { 'one.md': '# One\n\nfirst', 'deep/two.md': '# Two\n\nsecond' });
    const { sift, kb } = await watchingCore([kept, doomed]);
    await untilWatching(sift, kb, kept);
    await untilWatching(sift, kb, doomed);
    const { events, stop } = recordProgress(sift, kb);

    fs.rmSync(doomed, { recursive: true });
    const finished = () => events.find((e) => e.state === 'done' && e.error !== null);
    await waitFor(() => finished() !== undefined, 5000, 'a run finishing with an error');
    expect(finished()!.error).toBe(`folder ${doomed}: the folder ${doomed} does not exist`);

    fs.writeFileSync(path.join(kept, 'later.md'), '# Later\n\nlaterword after the removal\n');
    const ms = await waitFor(async () => (await keywordHits(sift, kb, 'laterword')).includes('wiki/later.md'), WITHIN_MS, 'a new file in the other folder');
    stop();
    console.info(`watch latency after a folder was removed: ${ms.toFixed(0)} ms`);
    expect(await keywordHits(sift, kb, 'keptword')).toEqual(['wiki/keep.md']);
    // The vanished folder's pages are kept (an unplugged disk must not wipe an index) until it is removed.
    expect((await sift.invoke('pages.get', { kb, path: 'wiki/doomed-folder/one.md' })).ok).toBe(true);
    expect(events.every((e) => e.state !== 'error')).toBe(true);
    // The removal's late events (a debounced unlink, the folder's unlinkDir) may start one more
    // reconciling run; the knowledge base must come to rest in 'done', never in 'error'.
    await waitFor(async () => (await call(sift, 'ingest.status', { kb })).state === 'done', 10_000, 'the runs coming to rest');
  });

  it('after a watched change, the store figures still count the whole knowledge base (issue #14, item 12)', async () => {
    const root = tempDir();
    writeFiles(root, { 'ok.md': '# Ok\n\nfine', 'broken.pdf': '%PDF-1.4 not really', 'empty.md': '', 'other.md': '# Other\n\nmore' });
    const { sift, kb } = await watchingCore([root]);
    await untilWatching(sift, kb, root);
    const { events, stop } = recordProgress(sift, kb);
    fs.writeFileSync(path.join(root, 'ok.md'), '# Ok\n\nchanged while watched\n');
    await waitFor(() => events.some((e) => e.state === 'done' && e.filesIndexed === 1), 15_000, 'the watched run');
    stop();
    // The run counts what it read (the changed file; on a slow machine the watcher may fold it into a full
    // rescan); the store figures still count the whole knowledge base: four files, one failed, one skipped.
    const run = events.find((e) => e.state === 'done' && e.filesIndexed === 1)!;
    expect(run.filesDone).toBe(run.filesTotal);
    expect(run.stored).toEqual({ files: 4, failed: 1, skipped: 1 });
    const status = await call(sift, 'ingest.status', { kb });
    expect(status.stored).toEqual({ files: 4, failed: 1, skipped: 1 });
    expect(status.problems.filter((p) => p.status === 'failed')).toHaveLength(status.stored.failed);
  }, 40_000);

  it('says by a code whether keyword-only search was chosen or forced', async () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': '# A\n\nalpha' });
    const sift = openCore(tempDir(), { embedding: { provider: 'none' } });
    open.push(sift);
    const kb = await makeKb(sift, 'Plain', [root]);
    expect(await sift.ingest(kb)).toMatchObject({ keywordOnlyCode: 'not_configured', embeddingModel: null });
    const missing = openCore(tempDir(), { embedding: { provider: 'transformers', modelId: 'sift-test/missing', allowDownload: false } });
    open.push(missing);
    const other = await makeKb(missing, 'Missing', [root]);
    expect(await missing.ingest(other)).toMatchObject({ keywordOnlyCode: 'model_unavailable' });
    expect((await call(missing, 'app.info', {})).embeddingOverride).toBe('transformers');
  });
});
