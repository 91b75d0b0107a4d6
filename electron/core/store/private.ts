/**
 * Owner-only permissions for what Sift keeps: the data folder and its folders 0700, databases
 * (with SQLite's -wal and -shm files) and logs 0600, on POSIX systems. They hold a person's notes,
 * questions and answers, which other accounts on the machine have no business reading. Folders and
 * files made by an older version with wider permissions are tightened when Sift opens them.
 * Windows is left alone: its files are private through ACLs, and chmod only sets read-only there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SiftError } from '../../../shared/errors';

/** Folder mode: the owner reads, writes and enters; nobody else. */
export const PRIVATE_DIR_MODE = 0o700;
/** File mode: the owner reads and writes; nobody else. */
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** Set `target`'s permission bits to `mode` when they differ; a missing target is skipped. */
function tighten(target: string, mode: number): void {
  if (!posix) return;
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Create `dir` (and missing parents) owner-only, or tighten it when it already exists. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/**
 * Throw a clear `io_error` when `dir`, or a folder above it, exists as something other than a folder (a file where the
 * data folder should be): mkdir would otherwise fail with a bare EEXIST or ENOTDIR.
 */
function assertFolderPossible(dir: string): void {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const stat = statOrNull(at);
    if (stat && !stat.isDirectory()) {
      const what = at === path.resolve(dir) ? `${at} is a file, not a folder` : `${at} is a file, so no folder can be made inside it`;
      throw new SiftError('io_error', `the data folder cannot be used: ${what}; choose another data folder`);
    }
    if (stat || path.dirname(at) === at) return;
  }
}

/** What is at `at`, or null when nothing is (also when a file above it stands in the way: ENOTDIR). */
function statOrNull(at: string): fs.Stats | null {
  try {
    return fs.statSync(at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Tighten an existing file to owner-only; a missing file is skipped. */
export function tightenFile(file: string): void {
  tighten(file, PRIVATE_FILE_MODE);
}

/** A database file's companions that SQLite makes in WAL mode, with the same contents' sensitivity. */
export function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/**
 * Create an empty database file owner-only when it does not exist yet (an empty file is a valid
 * SQLite database), so SQLite — which gives -wal and -shm the main file's mode — makes them private too.
 */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  tightenFile(file);
}

/**
 * Tighten a data folder made by an older version: the folder, its `kbs/` and `logs/` folders, and
 * the files directly in `kbs/`, `logs/` and `logs/retrieval/`. Missing parts are skipped.
 */
export function tightenDataDir(dataDir: string): void {
  assertFolderPossible(dataDir);
  ensurePrivateDir(dataDir);
  for (const sub of ['kbs', 'logs', path.join('logs', 'retrieval'), 'models']) {
    const dir = path.join(dataDir, sub);
    tighten(dir, PRIVATE_DIR_MODE);
    if (sub === 'models' || !fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile()) tightenFile(path.join(dir, entry.name));
    }
  }
}
