/**
 * Writing exports safely: file names are sanitised (no path separators, control or reserved
 * characters, no Windows device names), the result must lie inside the folder the person chose,
 * and an existing file is never overwritten (`name (2).md`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SiftError } from '../../../shared/errors';

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
// Path separators, characters Windows forbids, and control characters.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\:*?"<>|\u0000-\u001f\u007f]/g;

/** A safe file name for `wanted` with extension `ext` (e.g. `md`), at most 120 characters before it. */
export function sanitizeFileName(wanted: string, ext: string): string {
  let base = wanted.replace(FORBIDDEN, ' ').replace(/\s+/g, ' ').trim();
  if (base.toLowerCase().endsWith(`.${ext}`)) base = base.slice(0, -(ext.length + 1));
  base = base.replace(/^[.\s]+|[.\s]+$/g, '');
  base = [...base].slice(0, 120).join('').trim();
  if (!base || RESERVED.test(base)) base = base ? `${base}-export` : 'sift-export';
  return `${base}.${ext}`;
}

/**
 * Write `content` as `fileName` (already sanitised) inside `folder`, never outside it and never over
 * an existing file. Returns the path written.
 */
export function writeInside(folder: string, fileName: string, content: string | Buffer): string {
  let root: string;
  try {
    root = fs.realpathSync(folder);
  } catch {
    throw new SiftError('not_found', `the folder ${folder} does not exist`);
  }
  if (!fs.statSync(root).isDirectory()) throw new SiftError('invalid_argument', `${folder} is not a folder`);
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  for (let n = 1; n < 1000; n++) {
    const candidate = path.resolve(root, n === 1 ? fileName : `${stem} (${n})${ext}`);
    if (path.dirname(candidate) !== root) throw new SiftError('invalid_argument', `the file name ${fileName} would leave the folder ${root}`);
    try {
      fs.writeFileSync(candidate, content, { flag: 'wx' });
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new SiftError('io_error', `cannot write ${candidate}: ${(err as Error).message}`);
    }
  }
  throw new SiftError('io_error', `too many files named like ${fileName} in ${root}`);
}
