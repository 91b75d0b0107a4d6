/**
 * The keyword indexes' row counts and token totals (which bm25 divides by) stay those of the rows there are:
 * pages written again, removed, or left half-settled by a crash count as what the index holds, not as
 * everything ever written to it. FTS5's contentless_delete tables do not take deleted rows out themselves.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { keywordSearch } from './keyword';
import { writeChunkedPages, type ChunkedPage } from './testing/chunked-pages';
import { keywordTotals, noteRemovedKeywordRows, readVarints, recountKeywordTotals, settleKeywordTotals, writeVarints } from '../store/keyword-totals';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { removeDocument } from '../ingest/page-store';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function kb(file = path.join(tempDir(), 'kb.sqlite')): Database.Database {
  const db = openDatabase(file, kbMigrations, 'test kb', { vectors: true });
  open.push(db);
  return db;
}

const PAGES: ChunkedPage[] = [
  { texts: ['the pool size caps open connections', 'a timeout closes idle ones'], titleTokens: 'pool', pathTokens: '0.md' },
  { texts: ['pool size and the retry budget'], titleTokens: 'retry', pathTokens: '1.md' },
  { texts: ['notes on the weather', 'rain again, and the pool is closed'], titleTokens: 'weather', pathTokens: '2.md' },
];

/** What the index holds, counted from its rows' sizes: rows, then tokens per column. */
function counted(db: Database.Database, table: 'chunks_fts' | 'sections_fts'): number[] {
  const totals: number[] = [];
  for (const size of db.prepare(`SELECT sz FROM ${table}_docsize`).pluck().all() as Uint8Array[]) {
    totals[0] = (totals[0] ?? 0) + 1;
    readVarints(size).forEach((n, i) => (totals[i + 1] = (totals[i + 1] ?? 0) + n));
  }
  return totals;
}

/** Page `pagePath`'s keyword rows deleted and noted in a committed transaction, without settling. */
function deleteUnsettled(db: Database.Database, pagePath: string): void {
  db.transaction(() => {
    const page = db.prepare(`SELECT id FROM pages WHERE path = ?`).pluck().get(pagePath) as number;
    noteRemovedKeywordRows(db, page);
    db.prepare(`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE page_id = ?)`).run(page);
    db.prepare(`DELETE FROM sections_fts WHERE rowid IN (SELECT id FROM sections WHERE page_id = ?)`).run(page);
  })();
}

const scores = (db: Database.Database) => keywordSearch(db, 'pool size timeout', 10, null).map((h) => h.score);

describe('keyword index totals', () => {
  it('count each row once however often its page is written again, so bm25 scores as on a fresh index', () => {
    const fresh = kb();
    writeChunkedPages(fresh, PAGES);
    const rewritten = kb();
    for (let i = 0; i < 3; i++) writeChunkedPages(rewritten, PAGES);
    for (const table of ['chunks_fts', 'sections_fts'] as const) {
      expect(keywordTotals(rewritten, table)).toEqual(counted(rewritten, table));
      expect(keywordTotals(rewritten, table)).toEqual(keywordTotals(fresh, table));
    }
    expect(keywordTotals(rewritten, 'chunks_fts')[0]).toBe(5);
    expect(scores(rewritten)).toHaveLength(scores(fresh).length);
    scores(rewritten).forEach((s, i) => expect(s).toBeCloseTo(scores(fresh)[i]!, 9));
  });

  it('take a removed page out', () => {
    const db = kb();
    writeChunkedPages(db, PAGES);
    const id = db.prepare(`SELECT id FROM documents WHERE rel_path = '2.md'`).pluck().get() as number;
    removeDocument(db, id);
    expect(keywordTotals(db, 'chunks_fts')[0]).toBe(3);
    expect(keywordTotals(db, 'chunks_fts')).toEqual(counted(db, 'chunks_fts'));
    expect(keywordTotals(db, 'sections_fts')).toEqual(counted(db, 'sections_fts'));
  });

  it('keep a deficit a crash left unsettled, and take it off when the knowledge base is next settled', () => {
    const file = path.join(tempDir(), 'kb.sqlite');
    const db = kb(file);
    writeChunkedPages(db, PAGES);
    // The process "stops" before settling.
    deleteUnsettled(db, 'wiki/0.md');
    db.close();
    const reopened = kb(file);
    expect(keywordTotals(reopened, 'chunks_fts')[0]).toBe(5);
    settleKeywordTotals(reopened);
    expect(keywordTotals(reopened, 'chunks_fts')).toEqual(counted(reopened, 'chunks_fts'));
    expect(keywordTotals(reopened, 'sections_fts')).toEqual(counted(reopened, 'sections_fts'));
    expect(reopened.prepare(`SELECT count(*) FROM kb_meta WHERE key LIKE 'keyword_removed:%'`).pluck().get()).toBe(0);
  });

  it('leave the deficit pending while another connection holds the write lock, and settle it afterwards', () => {
    const file = path.join(tempDir(), 'kb.sqlite');
    const db = kb(file);
    writeChunkedPages(db, PAGES);
    deleteUnsettled(db, 'wiki/1.md');
    const other = kb(file);
    other.prepare('BEGIN IMMEDIATE').run();
    db.pragma('busy_timeout = 0');
    expect(() => settleKeywordTotals(db)).not.toThrow();
    expect(keywordTotals(db, 'chunks_fts')[0]).toBe(5);
    other.prepare('COMMIT').run();
    settleKeywordTotals(db);
    expect(keywordTotals(db, 'chunks_fts')).toEqual(counted(db, 'chunks_fts'));
  });

  it('are counted again from the rows by the migration, for indexes written before deletes were taken off', () => {
    const db = kb();
    writeChunkedPages(db, PAGES);
    // Rows deleted the way every delete was before: FTS5 leaves them in its totals.
    db.prepare(`DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE page_id = 1)`).run();
    expect(keywordTotals(db, 'chunks_fts')[0]).toBe(5);
    db.transaction(() => recountKeywordTotals(db))();
    expect(keywordTotals(db, 'chunks_fts')).toEqual(counted(db, 'chunks_fts'));
    expect(keywordTotals(db, 'chunks_fts')[0]).toBe(3);
  });

  it('write SQLite varints that read back', () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2_097_151, 268_435_455, 268_435_456, 2 ** 40, 2 ** 53 - 1];
    expect(readVarints(writeVarints(values))).toEqual(values);
    expect([...writeVarints([300])]).toEqual([0x82, 0x2c]);
  });
});
