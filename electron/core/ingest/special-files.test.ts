/**
 * Files that are not files: a FIFO named like a note blocks a read forever, a link to /dev/zero
 * never ends. A full run lists them as skipped with the reason, indexes everything else, and the
 * core still closes. (The watcher's path to the same reader is tested in watch.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp';
import { call, openCore, writeFiles } from './testing/fixtures';
import { prepareFile } from './prepare';
import { readRegularFile } from '../base/safe-read';
import { scanFolder } from './scan';

/** Make a FIFO at `file`; false where `mkfifo` is missing (Windows). */
function makeFifo(file: string): boolean {
  return spawnSync('mkfifo', [file]).status === 0;
}

/** Resolve `work`, or reject after `ms` with a message naming `what` (a hang fails instead of stalling). */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

describe('special files in a folder', () => {
  it('a full run skips a FIFO and a link to /dev/zero with a reason, indexes the rest, and close() returns', async (ctx) => {
    const root = fs.realpathSync(tempDir());
    writeFiles(root, { 'a.md': '# A\n\nalphaword', 'sub/b.md': '# B\n\nbetaword' });
    if (!makeFifo(path.join(root, 'pipe.md')) || !fs.existsSync('/dev/zero')) ctx.skip();
    fs.symlinkSync('/dev/zero', path.join(root, 'sub', 'zero.md'));
    const sift = openCore(tempDir());
    try {
      const kb = await call(sift, 'kb.create', { name: 'Special' });
      await call(sift, 'folder.add', { kb: kb.id, path: root, followExternalLinks: true });
      const status = await within(sift.ingest(kb.id), 20_000, 'the ingest');
      expect(status.state).toBe('done');
      expect((await call(sift, 'pages.list', { kb: kb.id })).map((p) => p.path)).toEqual(['wiki/a.md', 'wiki/sub/b.md']);
      expect(status.problems.map((p) => [p.relPath, p.status, p.reason])).toEqual([
        ['pipe.md', 'skipped', 'not a regular file: a FIFO (named pipe)'],
        ['sub/zero.md', 'skipped', 'not a regular file: a character device'],
      ]);
    } finally {
      await within(sift.close(), 10_000, 'close()');
    }
  }, 40_000);

  it('preparing a file swapped for a FIFO or a device after the scan never reads it', async (ctx) => {
    const root = fs.realpathSync(tempDir());
    if (!makeFifo(path.join(root, 'pipe.md')) || !fs.existsSync('/dev/zero')) ctx.skip();
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.md'));
    const job = (relPath: string) => ({
      folder: root,
      relPath,
      absPath: path.join(root, relPath),
      pagePath: `wiki/${relPath}`,
      maxFileBytes: 1 << 20,
      knownSha256: null,
      size: 0,
      followExternalLinks: true,
    });
    const reasons = [];
    for (const rel of ['pipe.md', 'zero.md']) {
      const outcome = await within(prepareFile(job(rel)), 5000, `preparing ${rel}`);
      reasons.push(outcome.kind === 'problem' ? `${outcome.problem.status}: ${outcome.problem.reason}` : outcome.kind);
    }
    expect(reasons).toEqual(['skipped: not a regular file: a FIFO (named pipe)', 'skipped: not a regular file: a character device']);
  });

  it('reads at most one byte past the cap, whatever size stat gave', async () => {
    const root = fs.realpathSync(tempDir());
    writeFiles(root, { 'big.md': 'x'.repeat(5000) });
    const file = path.join(root, 'big.md');
    expect(readRegularFile(file, 4096, 1000)).toEqual({ ok: false, why: 'too_large', detail: 'more than 4096 bytes' });
    const whole = readRegularFile(file, 5000, 1000);
    expect(whole.ok && whole.bytes.length).toBe(5000);
    const job = { folder: root, relPath: 'big.md', absPath: file, pagePath: 'wiki/big.md', knownSha256: null, size: 0 };
    const refused = await prepareFile({ ...job, maxFileBytes: 4096 });
    expect(refused.kind === 'problem' && refused.problem.reason).toBe('too large (5 KB > 4 KB cap)');
  });

  it('does not read a link that leads outside the folder unless the folder follows links out', async () => {
    const root = fs.realpathSync(tempDir());
    const outside = fs.realpathSync(tempDir());
    writeFiles(outside, { 'secret.md': '# Secret\n\nelsewhere' });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'link.md'));
    const job = { folder: root, relPath: 'link.md', absPath: path.join(root, 'link.md'), pagePath: 'wiki/link.md', maxFileBytes: 1 << 20, knownSha256: null, size: 0 };
    const refused = await prepareFile(job);
    expect(refused.kind === 'problem' && refused.problem.reason).toBe('a link to outside the folder (links out are not followed for this folder)');
    expect((await prepareFile({ ...job, followExternalLinks: true })).kind).toBe('page');
  });

  // Issue #27 item 3: with the size setting at its 2 GB maximum, a 1.9 GB sparse Markdown file (no disk used) was
  // read whole, then decoded, before it was found to be binary (4.5 GB peak). Text kinds have their own ceiling,
  // checked against the size before a byte is read, by the scan and by the worker alike.
  it('skips a 1.9 GB sparse Markdown file by its size before reading it, even with the cap at 2 GB', async () => {
    const root = fs.realpathSync(tempDir());
    const file = path.join(root, 'huge.md');
    fs.writeFileSync(file, '# Huge\n');
    fs.truncateSync(file, Math.round(1.9 * 1024 ** 3));
    const cap = 2048 * 1024 * 1024;
    const { files, skipped } = await scanFolder(root, { maxFileBytes: cap });
    expect(files).toEqual([]);
    expect(skipped).toEqual([{ relPath: 'huge.md', reason: 'too large (1.9 GB > 256 MB cap for text files)' }]);
    const before = process.memoryUsage().rss;
    const job = { folder: root, relPath: 'huge.md', absPath: file, pagePath: 'wiki/huge.md', maxFileBytes: cap, knownSha256: null, size: 0 };
    const outcome = await prepareFile(job);
    expect(outcome.kind === 'problem' && outcome.problem).toMatchObject({ status: 'skipped', reason: 'too large (1946 MB > 256 MB cap for text files)' });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
    // A PDF keeps the setting's cap: its bytes are not held as text.
    fs.renameSync(file, path.join(root, 'huge.pdf'));
    expect((await scanFolder(root, { maxFileBytes: cap })).files.map((f) => f.relPath)).toEqual(['huge.pdf']);
  });

  it.runIf(process.platform === 'linux')('never reads a link into /proc, even when the folder follows links out (issue #27 item 3)', async () => {
    const root = fs.realpathSync(tempDir());
    fs.symlinkSync('/proc/self/environ', path.join(root, 'environ.txt'));
    const job = { folder: root, relPath: 'environ.txt', absPath: path.join(root, 'environ.txt'), pagePath: 'wiki/environ.txt', maxFileBytes: 1 << 20, knownSha256: null, size: 0 };
    const refused = await prepareFile({ ...job, followExternalLinks: true });
    expect(refused.kind === 'problem' && refused.problem.reason).toBe('a link into /proc (system folders are never followed)');
  });
});
