/**
 * What the keyword stage knows of a knowledge base's vocabulary: how many chunks there are and in
 * how many of them each term occurs. FTS5's vocabulary table counts a term's chunks by walking its
 * whole posting list (0.1 ms for a term in 10,000 chunks), so the figures are kept per connection and
 * dropped as soon as the index changes: a commit by another connection (an ingest worker) moves
 * `data_version`, one by this connection moves `total_changes()`. A search asks for all its terms at
 * once, in one statement.
 */
import type Database from 'better-sqlite3';
import { keywordTotals, readVarints } from '../store/keyword-totals';
import { cached, contentState } from '../store/statements';

/** Terms remembered per connection at most; past it the memory starts again. Default 50,000. */
const MAX_TERMS = 50_000;

interface Stats {
  /** `data_version:total_changes` when the figures were read. */
  version: string;
  chunks: number | null;
  df: Map<string, number>;
  averages: IndexAverages | null;
}

const byConnection = new WeakMap<Database.Database, Stats>();

/** The figures of `db`, emptied when its index has changed since they were read (one statement). */
function statsOf(db: Database.Database): Stats {
  const version = contentState(db);
  let stats = byConnection.get(db);
  if (!stats || stats.version !== version || stats.df.size > MAX_TERMS) {
    stats = { version, chunks: null, df: new Map(), averages: null };
    byConnection.set(db, stats);
  }
  return stats;
}

/** Term statistics of one knowledge base as of now. */
export interface TermStats {
  /** Changes whenever the index does (a commit by any connection). */
  readonly version: string;
  /** Number of chunks. */
  readonly chunks: number;
  /** Chunks holding `term` (0 when none); every term asked for must be in the `terms` given. */
  df(term: string): number;
}

/** The chunk count and the document frequency of each of `terms`, reading only what is not remembered. */
export function termStats(db: Database.Database, terms: Iterable<string>): TermStats {
  const stats = statsOf(db);
  const missing = [...new Set(terms)].filter((t) => !stats.df.has(t));
  if (missing.length > 0) {
    const sql = `SELECT term, doc FROM chunks_vocab WHERE term IN (SELECT value FROM json_each(?))`;
    const rows = cached(db, sql).raw().all(JSON.stringify(missing)) as [string, number][];
    for (const t of missing) stats.df.set(t, 0);
    for (const [term, doc] of rows) stats.df.set(term, doc);
  }
  stats.chunks ??= cached(db, `SELECT count(*) FROM chunks`).pluck().get() as number;
  const { version, chunks, df } = stats;
  return { version, chunks, df: (term) => df.get(term) ?? 0 };
}

/** The keyword index's size as bm25 sees it. */
export interface IndexAverages {
  /** Rows (chunks) in the index. */
  rows: number;
  /** Mean tokens per row, all columns together. */
  avgTokens: number;
}

/** The sum of the varints in `bytes`: with FTS5's docsize record of a row (a count per column), its length. */
export function totalOfVarints(bytes: Uint8Array): number {
  return readVarints(bytes).reduce((sum, n) => sum + n, 0);
}

/**
 * Rows and mean row length of the chunk index, read from FTS5's own averages record (store/keyword-totals.ts:
 * the row count, then each column's token total), so a score worked out here uses the same figures as FTS5's bm25.
 */
export function indexAverages(db: Database.Database): IndexAverages {
  const stats = statsOf(db);
  if (stats.averages) return stats.averages;
  const [rows = 0, ...columns] = keywordTotals(db, 'chunks_fts');
  const tokens = columns.reduce((sum, n) => sum + n, 0);
  stats.averages = { rows, avgTokens: rows > 0 ? tokens / rows : 0 };
  return stats.averages;
}
