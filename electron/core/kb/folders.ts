/**
 * The folders of a knowledge base. A folder must exist, be a directory, not be added twice, and
 * not sit inside (or contain) another folder of the same knowledge base — that would index the
 * same files twice under two page paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract';
import { SiftError } from '../../../shared/errors';
import type { Folder } from '../../../shared/models';
import { now, type CoreContext } from '../store/context';
import { globProblem } from './ignore-rules';
import { resolveKb } from './knowledge-bases';

interface FolderRow {
  kb_id: string;
  path: string;
  added_at: string;
  exclude_globs: string;
  page_prefix: string;
  follow_external_links: number;
}

function toFolder(row: FolderRow): Folder {
  return {
    kbId: row.kb_id,
    path: row.path,
    name: path.basename(row.path) || row.path,
    addedAt: row.added_at,
    excludeGlobs: JSON.parse(row.exclude_globs) as string[],
    pagePrefix: row.page_prefix,
    followExternalLinks: row.follow_external_links === 1,
  };
}

/** The folders of knowledge base `kbId`, in the order they were added. */
export function listFolders(ctx: CoreContext, kbId: string): Folder[] {
  const rows = ctx.appDb.prepare(`SELECT * FROM folders WHERE kb_id = ? ORDER BY added_at, path`).all(kbId) as FolderRow[];
  return rows.map(toFolder);
}

/** True when `inner` is `outer` or lies below it. */
export function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path of `abs`, or `abs` itself when it is gone from disk (stored folders match either). */
function safeRealpath(abs: string): string {
  try {
    return fs.realpathSync(abs);
  } catch {
    return abs;
  }
}

/** Resolve a user-typed path to the real absolute directory, or throw a clear error. */
function resolveExistingDir(input: string): string {
  const abs = path.resolve(input.replace(/^~(?=$|[\\/])/, process.env.HOME ?? '~'));
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    throw new SiftError('not_found', `the folder ${abs} does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw new SiftError('invalid_argument', `${abs} is a file, not a folder`);
  return real;
}

/**
 * Virtual and system file systems: their "files" are processes, devices and kernel state (`/proc`
 * alone offered 33,000 pages through `/proc/<pid>/cwd` links), never documents.
 */
const SYSTEM_FOLDERS = process.platform === 'win32' ? [] : ['/proc', '/sys', '/dev', '/run'];

/**
 * Throw when `real` (a real path) must not be a folder of a knowledge base: a file-system or drive
 * root, a system folder, or Sift's own data folder or a folder inside it. A folder that contains
 * the data folder (a home folder) is fine: the scan steps over the data folder.
 */
export function assertIndexable(real: string, dataDir: string): void {
  if (path.parse(real).root === real) {
    const hint = 'add the folders that hold your documents instead';
    throw new SiftError('invalid_argument', `${real} is the root of a file system; ${hint}`);
  }
  const system = SYSTEM_FOLDERS.find((sys) => isInside(real, sys));
  if (system) {
    const why = 'a system folder whose files are not documents';
    throw new SiftError('invalid_argument', `${real} is inside ${system}, ${why}`);
  }
  const data = safeRealpath(path.resolve(dataDir));
  if (isInside(real, data)) {
    const why = 'which holds its own index files';
    throw new SiftError('invalid_argument', `${real} is inside Sift's data folder ${data}, ${why}`);
  }
}

/**
 * The prefix a new folder's pages get: none while no other folder is unprefixed (the usual single
 * folder), else the folder's name, made unique among the knowledge base's prefixes.
 */
export function choosePrefix(existing: Folder[], folderPath: string): string {
  if (!existing.some((f) => f.pagePrefix === '')) return '';
  const taken = new Set(existing.map((f) => f.pagePrefix));
  const base = path.basename(folderPath) || 'folder';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** The folder operations of the contract. */
export function folderHandlers(ctx: CoreContext): Pick<Handlers, 'folder.add' | 'folder.remove' | 'folder.list' | 'folder.update'> {
  return {
    async 'folder.add'({ kb, path: input, followExternalLinks }) {
      const found = resolveKb(ctx, kb);
      const real = resolveExistingDir(input);
      assertIndexable(real, ctx.dataDir);
      for (const other of listFolders(ctx, found.id)) {
        if (other.path === real) throw new SiftError('already_exists', `${real} is already a folder of "${found.name}"`);
        if (isInside(real, other.path)) throw new SiftError('conflict', `${real} is inside ${other.path}, which "${found.name}" already indexes`);
        if (isInside(other.path, real)) throw new SiftError('conflict', `${real} contains ${other.path}, which "${found.name}" already indexes; remove that folder first`);
      }
      const at = now();
      const prefix = choosePrefix(listFolders(ctx, found.id), real);
      const follow = followExternalLinks ? 1 : 0;
      ctx.appDb
        .prepare(
          `INSERT INTO folders (kb_id, path, added_at, page_prefix, follow_external_links) VALUES (?, ?, ?, ?, ?)`,
        )
        .run(found.id, real, at, prefix, follow);
      ctx.appDb.prepare(`UPDATE knowledge_bases SET updated_at = ? WHERE id = ?`).run(at, found.id);
      ctx.events.emit('kb.changed', { kbId: found.id, change: 'folders' });
      return toFolder(ctx.appDb.prepare(`SELECT * FROM folders WHERE kb_id = ? AND path = ?`).get(found.id, real) as FolderRow);
    },

    async 'folder.remove'({ kb, path: input }) {
      const found = resolveKb(ctx, kb);
      const folders = listFolders(ctx, found.id);
      const abs = path.resolve(input);
      const match = folders.find((f) => f.path === safeRealpath(abs) || f.path === abs);
      if (!match) throw new SiftError('not_found', `${abs} is not a folder of "${found.name}"`);
      ctx.appDb.prepare(`DELETE FROM folders WHERE kb_id = ? AND path = ?`).run(found.id, match.path);
      ctx.appDb.prepare(`UPDATE knowledge_bases SET updated_at = ? WHERE id = ?`).run(now(), found.id);
      ctx.events.emit('kb.changed', { kbId: found.id, change: 'folders' });
      return { path: match.path };
    },

    async 'folder.list'({ kb }) {
      return listFolders(ctx, resolveKb(ctx, kb).id);
    },

    async 'folder.update'({ kb, path: input, excludeGlobs }) {
      const found = resolveKb(ctx, kb);
      const abs = path.resolve(input);
      const match = listFolders(ctx, found.id).find((f) => f.path === abs || f.path === safeRealpath(abs));
      if (!match) throw new SiftError('not_found', `${abs} is not a folder of "${found.name}"`);
      for (const glob of excludeGlobs) {
        const problem = globProblem(glob);
        if (!problem) continue;
        const message = `the exclude glob "${glob}" is too complex to match safely: ${problem}`;
        throw new SiftError('invalid_argument', message);
      }
      ctx.appDb.prepare(`UPDATE folders SET exclude_globs = ? WHERE kb_id = ? AND path = ?`).run(JSON.stringify(excludeGlobs), found.id, match.path);
      ctx.events.emit('kb.changed', { kbId: found.id, change: 'folders' });
      return listFolders(ctx, found.id).find((f) => f.path === match.path)!;
    },
  };
}
