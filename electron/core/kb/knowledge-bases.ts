/** Knowledge bases: create, list, rename, delete. Each owns one SQLite file of its own. */
import { randomBytes } from 'node:crypto';
import type { Handlers } from '../../../shared/contract';
import { SiftError } from '../../../shared/errors';
import type { KnowledgeBase } from '../../../shared/models';
import { now, type CoreContext } from '../store/context';

interface KbRow {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  folder_count: number;
  digests: number;
}

const SELECT_KB = `
  SELECT k.id, k.name, k.created_at, k.updated_at, k.digests,
         (SELECT count(*) FROM folders f WHERE f.kb_id = k.id) AS folder_count
  FROM knowledge_bases k`;

function toKb(row: KbRow): KnowledgeBase {
  const { id, name, created_at: createdAt, updated_at: updatedAt, folder_count: folderCount } = row;
  return { id, name, createdAt, updatedAt, folderCount, digests: row.digests === 1 };
}

/** Find a knowledge base by id, then by exact name; throws `not_found` when neither matches. */
export function resolveKb(ctx: CoreContext, ref: string): KnowledgeBase {
  const row =
    (ctx.appDb.prepare(`${SELECT_KB} WHERE k.id = ?`).get(ref) as KbRow | undefined) ??
    (ctx.appDb.prepare(`${SELECT_KB} WHERE k.name = ?`).get(ref) as KbRow | undefined);
  if (!row) throw new SiftError('not_found', `no knowledge base has the id or name "${ref}"`);
  return toKb(row);
}

function assertNameFree(ctx: CoreContext, name: string, exceptId?: string): void {
  const row = ctx.appDb.prepare(`SELECT id FROM knowledge_bases WHERE name = ?`).get(name) as { id: string } | undefined;
  if (row && row.id !== exceptId) throw new SiftError('already_exists', `a knowledge base named "${name}" already exists`);
}

/** What other parts must do around the knowledge-base operations. */
export interface KnowledgeBaseHooks {
  /** Runs before a knowledge base is deleted (e.g. stop its chat turns and wait for them). Default: nothing. */
  beforeDelete?: (kbId: string) => Promise<void>;
  /** Stop indexing and watching the knowledge base and wait until nothing holds its file. Default: nothing to stop. */
  stopIndexing?: (kbId: string) => Promise<void>;
}

/** The knowledge-base operations of the contract. */
export function knowledgeBaseHandlers(
  ctx: CoreContext,
  hooks: KnowledgeBaseHooks = {},
): Pick<Handlers, 'kb.create' | 'kb.list' | 'kb.rename' | 'kb.delete'> {
  return {
    async 'kb.create'({ name }) {
      assertNameFree(ctx, name);
      const id = randomBytes(6).toString('hex');
      const at = now();
      ctx.appDb.prepare(`INSERT INTO knowledge_bases (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`).run(id, name, at, at);
      try {
        ctx.kbFiles.get(id);
      } catch (err) {
        ctx.appDb.prepare(`DELETE FROM knowledge_bases WHERE id = ?`).run(id);
        throw err;
      }
      ctx.events.emit('kb.changed', { kbId: id, change: 'created' });
      return resolveKb(ctx, id);
    },

    async 'kb.list'() {
      const rows = ctx.appDb.prepare(`${SELECT_KB} ORDER BY k.created_at, k.id`).all() as KbRow[];
      return rows.map(toKb);
    },

    async 'kb.rename'({ kb, name }) {
      const found = resolveKb(ctx, kb);
      assertNameFree(ctx, name, found.id);
      ctx.appDb.prepare(`UPDATE knowledge_bases SET name = ?, updated_at = ? WHERE id = ?`).run(name, now(), found.id);
      ctx.events.emit('kb.changed', { kbId: found.id, change: 'renamed' });
      return resolveKb(ctx, found.id);
    },

    async 'kb.delete'({ kb }) {
      const found = resolveKb(ctx, kb);
      await hooks.beforeDelete?.(found.id);
      ctx.appDb.prepare(`DELETE FROM knowledge_bases WHERE id = ?`).run(found.id);
      // The row goes first so no new run can begin; the file goes last, once no run can write into
      // it (or create it again) and every worker has let go of it.
      await hooks.stopIndexing?.(found.id);
      ctx.kbFiles.remove(found.id);
      ctx.events.emit('kb.changed', { kbId: found.id, change: 'deleted' });
      return { id: found.id };
    },
  };
}
