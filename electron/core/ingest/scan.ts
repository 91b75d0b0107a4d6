/**
 * Walking a knowledge-base folder to find the files Sift should read. What is left out on purpose
 * (hidden files, dependency and build folders, `.gitignore`d paths, user globs, unsupported kinds)
 * is silent; what is left out against the user's likely wish (too large, unreadable) is reported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SiftError } from '../../../shared/errors';
import { say } from '../../../shared/said';
import { isWithin, nonRegularKind, unsafeLinkTarget } from '../base/safe-read';
import { undecodableNames } from './file-names';
import { fileVerdict, folderRules, isHidden, sizeCapOf, wantsFile, wantsFolder, withGitignore, type FolderRules, type IgnoreRules } from './rules';

/** A file the scan found and Sift will read. */
export interface ScannedFile {
  /** Absolute path as reached through the folder (through symlinks, not resolved). */
  absPath: string;
  /** Path relative to the scanned folder, `/`-separated. */
  relPath: string;
  size: number;
  /** Modification time in whole milliseconds (truncated, as the ingest stores it). */
  mtimeMs: number;
}

/** A file or folder the scan left out for a reason the user should see. */
export interface SkippedFile {
  /** Relative `/`-separated path; folders end with `/`. */
  relPath: string;
  /** Human reason, e.g. `too large (62 MB > 50 MB cap)` or `unreadable: EACCES`. */
  reason: string;
}

/** Options of {@link scanFolder}. */
export interface ScanOptions {
  /** Extra gitignore-syntax globs excluded from this folder (relative to it; not undone by `!` rules in `.gitignore` files). Default []. */
  excludeGlobs?: string[];
  /** Files larger than this are skipped with reason "too large". Default 50 MB (1 KB – 2 GB). */
  maxFileBytes?: number;
  /** Follow links whose target lies outside the folder. Default false: they are listed as skipped. */
  followExternalLinks?: boolean;
  /** Folders never entered, wherever they are reached (Sift's own data folder). Default []. */
  skipFolders?: string[];
}

/** The scan's result: files to read (sorted by relPath) and what was skipped (sorted too). */
export interface ScanResult {
  files: ScannedFile[];
  skipped: SkippedFile[];
}

const MB = 1024 * 1024;
const DEFAULT_MAX_FILE_BYTES = 50 * MB;
const MIN_MAX_FILE_BYTES = 1024;
const MAX_MAX_FILE_BYTES = 2 * 1024 * MB;

/** File-system calls in flight at once: enough to keep libuv's thread pool and an SSD busy. */
const IO_CONCURRENCY = 32;

interface FolderToRead {
  abs: string;
  rel: string;
  /** Real path, or null until resolved (folders reached through a symlink). */
  real: string | null;
  rules: IgnoreRules[];
}

interface Walk {
  io: <T>(task: () => Promise<T>) => Promise<T>;
  rules: FolderRules;
  maxFileBytes: number;
  /** Real path of the scanned folder; links out of it are followed only when `followOut`. */
  rootReal: string;
  followOut: boolean;
  /** Real paths of folders never entered. */
  skip: Set<string>;
  visited: Set<string>;
  files: ScannedFile[];
  skipped: SkippedFile[];
  /** Folders reached without crossing a symlink: entered before any symlinked folder. */
  plain: FolderToRead[];
  linked: FolderToRead[];
}

/**
 * Walk a folder recursively and list the files Sift should read (supported types only), plus what
 * it skipped and why. Symlinks are followed within the folder (out of it only when asked); a folder
 * whose real path was already entered is not entered again (no loops, no duplicates), and folders
 * reached directly win over symlinks to them. FIFOs, devices and sockets with a supported name are
 * reported as skipped, never read.
 * Throws SiftError `not_found`, `invalid_argument` (not a folder, bad option) or `io_error`.
 */
export async function scanFolder(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const maxFileBytes = checkedCap(options.maxFileBytes);
  const rootAbs = path.resolve(root);
  const rootReal = await realFolder(rootAbs);
  const walk: Walk = {
    io: limiter(IO_CONCURRENCY),
    rules: folderRules(rootAbs, options.excludeGlobs),
    maxFileBytes,
    rootReal,
    followOut: options.followExternalLinks ?? false,
    skip: new Set(await Promise.all((options.skipFolders ?? []).map(realOrSelf))),
    visited: new Set(),
    files: [],
    skipped: [],
    plain: [{ abs: rootAbs, rel: '', real: rootReal, rules: [] }],
    linked: [],
  };
  while (walk.plain.length > 0 || walk.linked.length > 0) {
    const batch = walk.plain.length > 0 ? walk.plain.splice(0) : walk.linked.splice(0);
    const entered = await claim(walk, batch);
    await Promise.all(entered.map((folder) => readFolder(walk, folder)));
  }
  const byPath = (a: { relPath: string }, b: { relPath: string }) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  return { files: walk.files.sort(byPath), skipped: walk.skipped.sort(byPath) };
}

function checkedCap(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_FILE_BYTES;
  if (!Number.isFinite(value) || value < MIN_MAX_FILE_BYTES || value > MAX_MAX_FILE_BYTES) {
    throw new SiftError('invalid_argument', `scanFolder: maxFileBytes must be between 1 KB and 2 GB (got ${value})`);
  }
  return value;
}

async function realFolder(abs: string): Promise<string> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(abs);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SiftError('not_found', `the folder ${abs} does not exist`);
    throw new SiftError('io_error', `cannot open the folder ${abs}: ${code}; check its permissions`);
  }
  if (!stat.isDirectory()) throw new SiftError('invalid_argument', `${abs} is a file, not a folder`);
  return fs.promises.realpath(abs);
}

async function realOrSelf(abs: string): Promise<string> {
  return fs.promises.realpath(abs).catch(() => path.resolve(abs));
}

/** The folders of `batch` not entered before, claimed in path order so the outcome never depends on timing. */
async function claim(walk: Walk, batch: FolderToRead[]): Promise<FolderToRead[]> {
  const resolved = await Promise.all(
    batch.map(async (folder) => {
      if (folder.real !== null) return folder;
      try {
        return { ...folder, real: await walk.io(() => fs.promises.realpath(folder.abs)) };
      } catch {
        return null; // the link went away while scanning
      }
    }),
  );
  const entered: FolderToRead[] = [];
  const ordered = resolved.filter((f): f is FolderToRead => f !== null).sort((a, b) => (a.rel < b.rel ? -1 : 1));
  for (const folder of ordered) {
    if (walk.visited.has(folder.real!) || (folder.rel !== '' && walk.skip.has(folder.real!))) continue;
    walk.visited.add(folder.real!);
    entered.push(folder);
  }
  return entered;
}

/** List one folder: queue its sub-folders, stat its supported files. */
async function readFolder(walk: Walk, folder: FolderToRead): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = await walk.io(() => fs.promises.readdir(folder.abs, { withFileTypes: true }));
  } catch (err) {
    const code = errorCode(err);
    if (folder.rel === '') throw new SiftError('io_error', `cannot read the folder ${folder.abs}: ${code}; check its permissions`);
    if (code !== 'ENOENT') walk.skipped.push({ relPath: `${folder.rel}/`, reason: `unreadable: ${code}` });
    return;
  }
  const rules = rulesInside(folder, entries);
  const child = (name: string) => ({ abs: path.join(folder.abs, name), rel: folder.rel ? `${folder.rel}/${name}` : name });
  const pending: Promise<void>[] = [];
  const garbled = entries.some((e) => e.name.includes('\uFFFD')) ? await walk.io(() => undecodableNames(folder.abs)) : null;
  for (const entry of entries) {
    if (isHidden(entry.name)) continue;
    const { abs, rel } = child(entry.name);
    const badName = garbled?.get(entry.name);
    if (badName) {
      // Its path as a string names no file: say so (when the rule would read it) rather than lose it.
      const dir = entry.isDirectory();
      if (dir ? wantsFolder(walk.rules, rules, entry.name, rel) : wantsFile(walk.rules, rules, entry.name, rel)) {
        walk.skipped.push({ relPath: dir ? `${rel}/` : rel, reason: badName });
      }
    } else if (entry.isDirectory()) {
      if (wantsFolder(walk.rules, rules, entry.name, rel)) walk.plain.push({ abs, rel, real: path.join(folder.real!, entry.name), rules });
    } else if (entry.isFile()) {
      const verdict = fileVerdict(walk.rules, rules, entry.name, rel);
      if (verdict === 'read') pending.push(addFile(walk, abs, rel));
      else if (verdict === 'not-read') walk.skipped.push({ relPath: rel, reason: say('file.unsupported', { name: entry.name }).text });
    } else if (entry.isSymbolicLink()) {
      pending.push(followLink(walk, rules, entry.name, abs, rel));
    } else if (wantsFile(walk.rules, rules, entry.name, rel)) {
      // Sockets, FIFOs and devices are never documents (and reading a FIFO would hang); a supported
      // name says the person may expect a page, so say why there is none.
      pending.push(skipSpecial(walk, abs, rel));
    }
  }
  await Promise.all(pending);
}

/** The rules that apply inside `folder`: its parents' plus its own `.gitignore`, if it has one. */
function rulesInside(folder: FolderToRead, entries: fs.Dirent[]): IgnoreRules[] {
  if (!entries.some((e) => e.name === '.gitignore' && !e.isDirectory())) return folder.rules;
  return withGitignore(folder.abs, folder.rel, folder.rules);
}

async function skipSpecial(walk: Walk, abs: string, rel: string): Promise<void> {
  const stat = await walk.io(() => fs.promises.lstat(abs)).catch(() => null);
  const kind = stat && nonRegularKind(stat);
  if (kind) walk.skipped.push({ relPath: rel, reason: `not a regular file: ${kind}` });
}

async function followLink(walk: Walk, rules: IgnoreRules[], name: string, abs: string, rel: string): Promise<void> {
  let target: fs.Stats;
  let real: string;
  try {
    target = await walk.io(() => fs.promises.stat(abs));
    real = await walk.io(() => fs.promises.realpath(abs));
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return; // a broken link is not a file
    walk.skipped.push({ relPath: rel, reason: `unreadable: ${code}` });
    return;
  }
  const within = isWithin(real, walk.rootReal);
  const unsafe = within ? null : unsafeLinkTarget(real, walk.rootReal);
  if (target.isDirectory()) {
    if (!wantsFolder(walk.rules, rules, name, rel)) return;
    if (unsafe) walk.skipped.push({ relPath: `${rel}/`, reason: unsafe });
    else if (walk.followOut || within) walk.linked.push({ abs, rel, real, rules });
    else walk.skipped.push({ relPath: `${rel}/`, reason: LINK_OUT });
  } else if (wantsFile(walk.rules, rules, name, rel)) {
    const kind = nonRegularKind(target);
    if (kind) walk.skipped.push({ relPath: rel, reason: `not a regular file: ${kind}` });
    else if (unsafe) walk.skipped.push({ relPath: rel, reason: unsafe });
    else if (!walk.followOut && !within) walk.skipped.push({ relPath: rel, reason: LINK_OUT });
    else await addFile(walk, abs, rel, target);
  }
}

/** Why a link out of the folder is not followed (the same words as the ingest uses). */
const LINK_OUT = 'a link to outside the folder (links out are not followed for this folder)';

/** Record `abs` as a file to read, or as skipped when it is too large or unreadable. */
async function addFile(walk: Walk, abs: string, rel: string, known?: fs.Stats): Promise<void> {
  const found = await statCandidate(abs, walk.io, known);
  if (found === null) return;
  if ('error' in found) {
    walk.skipped.push({ relPath: rel, reason: `unreadable: ${found.error}` });
  } else if (found.size > sizeCapOf(rel, walk.maxFileBytes).bytes) {
    const cap = sizeCapOf(rel, walk.maxFileBytes);
    walk.skipped.push({ relPath: rel, reason: `too large (${sizePair(found.size, cap.bytes)} cap${cap.text ? ' for text files' : ''})` });
  } else {
    walk.files.push({ absPath: abs, relPath: rel, size: found.size, mtimeMs: found.mtimeMs });
  }
}

/**
 * Size and mtime of a listed file that can be read; `{ error: code }` when it cannot; null when it
 * disappeared since the folder was listed (it is then simply not part of the scan). Exported for tests.
 */
export async function statCandidate(
  abs: string,
  io: <T>(task: () => Promise<T>) => Promise<T> = (task) => task(),
  known?: fs.Stats,
): Promise<{ size: number; mtimeMs: number } | { error: string } | null> {
  try {
    const stat = known ?? (await io(() => fs.promises.stat(abs)));
    // A world-readable file is readable by us; asking the OS costs a syscall per file (~40 % of a scan).
    if ((stat.mode & 0o004) === 0) await io(() => fs.promises.access(abs, fs.constants.R_OK));
    return { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) };
  } catch (err) {
    const code = errorCode(err);
    return code === 'ENOENT' ? null : { error: code };
  }
}

/** `62 MB > 50 MB`, falling back to exact bytes when rounding would make the two look equal. */
function sizePair(size: number, cap: number): string {
  const a = humanSize(size);
  const b = humanSize(cap);
  return a === b ? `${size} bytes > ${cap} bytes` : `${a} > ${b}`;
}

function humanSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | null)?.code ?? (err instanceof Error ? err.message : String(err));
}

/** Run at most `max` tasks at once; the rest wait in order. */
function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing task hands its slot over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
