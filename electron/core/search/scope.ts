/**
 * Search scope: which pages of a knowledge base a query may return. Applied before ranking, in
 * both stages, so a scoped query ranks only what is in scope (never top-N first, filter after).
 */
import type Database from 'better-sqlite3';

/** Restrict a search to pages by path, to folders, or by front-matter values (all given filters must hold). */
export interface SearchScope {
  /** Page paths (`wiki/…`). */
  pages?: string[];
  /** Absolute folder paths of the knowledge base. */
  folders?: string[];
  /** Front-matter keys and the exact value each must have (a list value matches when it contains it). */
  metadata?: Record<string, string | number | boolean>;
}

/** The page ids in scope, or null when the scope is the whole knowledge base. */
export function pagesInScope(db: Database.Database, scope: SearchScope | undefined): number[] | null {
  if (!scope || (!scope.pages && !scope.folders && !scope.metadata)) return null;
  const where: string[] = [];
  const params: unknown[] = [];
  if (scope.pages) {
    where.push(`p.path IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(scope.pages));
  }
  if (scope.folders) {
    where.push(`d.folder IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(scope.folders));
  }
  for (const [key, value] of Object.entries(scope.metadata ?? {})) {
    const pathExpr = `'$.' || json_quote(?)`;
    where.push(
      `(json_extract(p.metadata, ${pathExpr}) = ? OR EXISTS (SELECT 1 FROM json_each(p.metadata, ${pathExpr}) j WHERE j.value = ?))`,
    );
    const v = typeof value === 'boolean' ? Number(value) : value;
    params.push(key, v, key, v);
  }
  const sql = `SELECT p.id FROM pages p JOIN documents d ON d.id = p.document_id WHERE ${where.join(' AND ')}`;
  return db.prepare(sql).pluck().all(...params) as number[];
}

/**
 * The scope filter of a query on the chunk keyword index (`chunks_fts`, whose rowid is the chunk id): a
 * clause to append after its MATCH, taking `pageIds` as one JSON parameter; '' without a scope.
 */
export function chunkScopeClause(pageIds: number[] | null): string {
  return pageIds ? `AND rowid IN (SELECT id FROM chunks WHERE page_id IN (SELECT value FROM json_each(?)))` : '';
}
