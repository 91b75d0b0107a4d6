/**
 * The row count and token totals of the keyword indexes, which bm25 divides by. FTS5 keeps them in each
 * index's "averages" record (row 1 of its `_data` table: the number of rows, then the tokens of each column,
 * as varints). A contentless_delete table does not take a deleted row out of that record (SQLite 3.53: four
 * rows inserted and two deleted, it still says four rows and all their tokens), so every page written again
 * left its old rows counted: after two re-indexes of the same 19,235 chunks the chunk index said 57,705, every
 * term's idf moved, and SciFact train nDCG@10 went 0.7054 → 0.7034 against a fresh index of the same files.
 *
 * So a page's keyword rows are measured before they are deleted (FTS5 keeps each row's size in its `_docsize`
 * table), the sizes are added to a pending deficit in `kb_meta` in the same transaction, and the deficit is
 * taken off the records afterwards, in a transaction of its own: FTS5 holds the totals in memory while a
 * transaction writes to its table and writes them back when it commits, so a correction inside that
 * transaction would be overwritten. A crash between the two leaves the deficit pending; the next settle takes
 * it off. Knowledge bases written before this were counted again from `_docsize` (migration 013).
 */
import type Database from 'better-sqlite3';
import { cached } from './statements';

/** The keyword indexes, each with the table that lists its rows' ids (to measure a page's rows). */
export const KEYWORD_INDEXES = [
  { table: 'chunks_fts', columns: 3, rowsOfPage: 'SELECT id FROM chunks WHERE page_id = ?' },
  { table: 'sections_fts', columns: 2, rowsOfPage: 'SELECT id FROM sections WHERE page_id = ?' },
] as const;

type KeywordTable = (typeof KEYWORD_INDEXES)[number]['table'];

/** A keyword index's totals: rows, then tokens per column. */
export type KeywordTotals = number[];

/** The varints of an SQLite/FTS5 record (big-endian, 7 bits a byte, a ninth byte whole). */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let value = 0;
    for (let i = 0; i < 9 && at < bytes.length; i++) {
      const byte = bytes[at++]!;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  return out;
}

/** `values` as SQLite varints (each below 2^56, which token totals are). */
export function writeVarints(values: number[]): Buffer {
  const bytes: number[] = [];
  for (const value of values) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a count: ${value}`);
    const groups: number[] = [];
    let rest = value;
    do {
      groups.unshift(rest % 128);
      rest = Math.floor(rest / 128);
    } while (rest > 0);
    groups.forEach((g, i) => bytes.push(i < groups.length - 1 ? g | 0x80 : g));
  }
  return Buffer.from(bytes);
}

/** The totals FTS5 records for `table` (rows, then tokens per column). */
export function keywordTotals(db: Database.Database, table: KeywordTable): KeywordTotals {
  const block = cached(db, `SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as Uint8Array | undefined;
  return block ? readVarints(block) : [];
}

/** Replace `table`'s totals record. Only outside a transaction that wrote to the table (see the top). */
function writeTotals(db: Database.Database, table: KeywordTable, totals: KeywordTotals): void {
  // The record is one of FTS5's shadow rows, which the connection's defensive mode guards against writes.
  db.unsafeMode(true);
  try {
    cached(db, `REPLACE INTO ${table}_data (id, block) VALUES (1, ?)`).run(writeVarints(totals));
  } finally {
    db.unsafeMode(false);
  }
}

const PENDING = (table: KeywordTable) => `keyword_removed:${table}`;

/** Add `sizes` (a docsize record per row) to `into` (rows, then tokens per column). */
function addSizes(into: number[], sizes: Uint8Array[]): void {
  for (const size of sizes) {
    into[0] = (into[0] ?? 0) + 1;
    readVarints(size).forEach((n, col) => (into[col + 1] = (into[col + 1] ?? 0) + n));
  }
}

/**
 * Note the keyword rows of page `pageId`, about to be deleted inside the caller's transaction, as a deficit
 * the next settle takes off the totals. Call before deleting them: their sizes go with them.
 */
export function noteRemovedKeywordRows(db: Database.Database, pageId: number): void {
  for (const { table, rowsOfPage } of KEYWORD_INDEXES) {
    const sizes = cached(db, `SELECT sz FROM ${table}_docsize WHERE id IN (${rowsOfPage})`).pluck().all(pageId) as Uint8Array[];
    if (sizes.length === 0) continue;
    const pending = pendingDeficit(db, table);
    addSizes(pending, sizes);
    const upsert = `INSERT INTO kb_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    cached(db, upsert).run(PENDING(table), pending.join(','));
  }
}

function pendingDeficit(db: Database.Database, table: KeywordTable): number[] {
  const value = cached(db, `SELECT value FROM kb_meta WHERE key = ?`).pluck().get(PENDING(table)) as string | undefined;
  return value ? value.split(',').map(Number) : [];
}

/**
 * Take the pending deficits off the totals, in a transaction of its own. Does nothing inside an open
 * transaction, or while another connection holds the write lock past the busy timeout (the deficit
 * waits for the next settle), or when nothing is pending (one statement).
 */
export function settleKeywordTotals(db: Database.Database): void {
  if (db.inTransaction) return;
  const any = cached(db, `SELECT 1 FROM kb_meta WHERE key LIKE 'keyword_removed:%' LIMIT 1`).get();
  if (!any) return;
  try {
    applyDeficits(db);
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
  }
}

function applyDeficits(db: Database.Database): void {
  db.transaction(() => {
    for (const { table } of KEYWORD_INDEXES) {
      const deficit = pendingDeficit(db, table);
      if (deficit.length === 0) continue;
      const totals = keywordTotals(db, table);
      writeTotals(db, table, totals.map((n, i) => Math.max(0, n - (deficit[i] ?? 0))));
      cached(db, `DELETE FROM kb_meta WHERE key = ?`).run(PENDING(table));
    }
  }).immediate();
}

/** Count the totals of every keyword index again from its rows' sizes, and drop any pending deficit. */
export function recountKeywordTotals(db: Database.Database): void {
  for (const { table, columns } of KEYWORD_INDEXES) {
    const totals = new Array<number>(columns + 1).fill(0);
    for (const size of db.prepare(`SELECT sz FROM ${table}_docsize`).pluck().iterate() as Iterable<Uint8Array>) addSizes(totals, [size]);
    writeTotals(db, table, totals);
    db.prepare(`DELETE FROM kb_meta WHERE key = ?`).run(PENDING(table));
  }
}
