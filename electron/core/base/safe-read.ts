/**
 * Reading a file Sift did not create, without letting it hang or flood the process: only regular
 * files are read (a FIFO blocks a read forever, `/dev/zero` never ends, and both report size 0),
 * reading stops one byte past the size cap whatever `stat` claimed, and a time limit bounds a
 * read from a stalled disk or network share between chunks.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What a read of one file gives: its bytes, or why it was not read. */
export type ReadResult =
  | { ok: true; bytes: Buffer; size: number; mtimeMs: number }
  | { ok: false; why: 'not_regular' | 'too_large' | 'timeout'; detail: string };

/** Bytes read per call: big enough to be cheap, small enough that the time limit is checked often. */
const CHUNK = 1 << 20;
/** Bytes asked for past the size `stat` gave (a file still being written). */
const GROWTH = 64 << 10;

/** A phrase naming what a non-regular file is, e.g. `a FIFO (named pipe)`; null for a regular file. */
export function nonRegularKind(stat: fs.Stats): string | null {
  if (stat.isFile()) return null;
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** True when `inner` is `outer` or lies below it (both absolute). */
export function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Folders of the system, not of documents: their "files" are live kernel state (`/proc/self/environ`), endless
 *  or a way back into the whole disk. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

/**
 * Why a link whose real target is `real` is never followed, even for a folder that follows links out: the root of
 * the file system, a system folder (`/proc`, `/sys`, `/dev`), or a folder that holds `folder` itself (following it
 * would read the folder again, and everything beside it). Null when the target is fine. POSIX paths only.
 */
export function unsafeLinkTarget(real: string, folder: string): string | null {
  if (path.sep !== '/') return null;
  if (real === '/') return 'a link to the root of the file system (never followed)';
  const system = SYSTEM_FOLDERS.find((dir) => isWithin(real, dir));
  if (system) return `a link into ${system} (system folders are never followed)`;
  if (real !== folder && isWithin(folder, real)) return 'a link to a folder that holds this folder (never followed)';
  return null;
}

/**
 * Read `abs` (links resolved) if it is a regular file of at most `maxBytes` bytes, giving up after
 * `timeLimitMs` (checked between chunks). Opened non-blocking, so even a file swapped for a FIFO
 * after the check cannot block the open; the open file is checked again before any read.
 * Throws only for errors of the file system (ENOENT, EACCES…), which the caller reports.
 */
export function readRegularFile(abs: string, maxBytes: number, timeLimitMs: number): ReadResult {
  const deadline = Date.now() + timeLimitMs;
  const nonBlocking = fs.constants.O_NONBLOCK ?? 0; // absent on Windows, which has no FIFOs in folders
  const fd = fs.openSync(abs, fs.constants.O_RDONLY | nonBlocking);
  try {
    const stat = fs.fstatSync(fd);
    const kind = nonRegularKind(stat);
    if (kind) return { ok: false, why: 'not_regular', detail: `not a regular file: ${kind}` };
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Ask for what stat promised plus one byte (to see the end), a little more for a growing file.
      const expected = total < stat.size ? stat.size - total + 1 : GROWTH;
      const want = Math.min(CHUNK, maxBytes + 1 - total, expected);
      const part = Buffer.allocUnsafe(want);
      const got = fs.readSync(fd, part, 0, want, null);
      if (got === 0) break;
      parts.push(got === want ? part : part.subarray(0, got));
      total += got;
      if (total > maxBytes) return { ok: false, why: 'too_large', detail: `more than ${maxBytes} bytes` };
      const late = Date.now() > deadline;
      if (late) return { ok: false, why: 'timeout', detail: `reading took longer than ${timeLimitMs} ms` };
    }
    return { ok: true, bytes: Buffer.concat(parts, total), size: total, mtimeMs: Math.trunc(stat.mtimeMs) };
  } finally {
    fs.closeSync(fd);
  }
}
