/**
 * The reference a keyword stage is held to: a stock SQLite FTS5 index (unicode61, no Sift tokenizer,
 * one column) of the same chunks' text, queried with the same queries as an OR of their unicode61
 * words, bm25, top 50. It knows no Chinese words (a run of Han characters is one token) and no
 * identifiers, so it finds less; what it costs is the floor a keyword search on these chunks starts from.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fmt, note, percentile } from './measure';
import type { SearchKb } from './search-kb';
import { cpuSince, type BenchQuery } from './search-run';

/** A stock FTS5 index of a benchmark knowledge base's chunks, in a temporary file. */
export interface StockIndex {
  db: Database.Database;
  /** Build time, ms. */
  buildMs: number;
  close(): void;
}

/** Index every chunk's text of `kb` in a stock FTS5 unicode61 table. */
export function stockIndex(kb: SearchKb): StockIndex {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-stock-fts-'));
  const db = new Database(path.join(dir, 'stock.sqlite'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE VIRTUAL TABLE stock USING fts5(body)`);
  const t0 = performance.now();
  const insert = db.prepare(`INSERT INTO stock (rowid, body) VALUES (?, ?)`);
  const pages = kb.db.prepare(`SELECT id, text FROM pages`).raw();
  const chunks = kb.db.prepare(`SELECT id, start, end FROM chunks WHERE page_id = ?`).raw();
  db.transaction(() => {
    for (const [pageId, text] of pages.iterate() as Iterable<[number, string]>) {
      for (const [id, start, end] of chunks.all(pageId) as [number, number, number][]) insert.run(id, text.slice(start, end));
    }
  })();
  const buildMs = performance.now() - t0;
  return { db, buildMs, close: () => (db.close(), fs.rmSync(dir, { recursive: true, force: true })) };
}

/** The query as stock FTS5 would be asked it: its unicode61 words, quoted, ORed; null when it has none. */
export function stockMatch(query: string): string | null {
  const words = query.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ') : null;
}

/** CPU ms per query (each list entry one query, after a warm-up of 30) and how many found nothing. */
export function timeStock(index: StockIndex, queries: BenchQuery[]): { cpu: number[]; empty: number } {
  const search = index.db.prepare(`SELECT rowid, bm25(stock) AS s FROM stock WHERE stock MATCH ? ORDER BY s LIMIT 50`).raw();
  const run = (q: BenchQuery) => {
    const match = stockMatch(q.text);
    return match ? search.all(match).length : 0;
  };
  for (const q of queries.slice(0, 30)) run(q);
  const cpu: number[] = [];
  let empty = 0;
  for (const q of queries) {
    const c0 = process.cpuUsage();
    if (run(q) === 0) empty++;
    cpu.push(cpuSince(c0));
  }
  return { cpu, empty };
}

/** Print the stock index's figures beside Sift's. */
export function stockFtsFigures(kb: SearchKb, queries: BenchQuery[]): void {
  const index = stockIndex(kb);
  try {
    const { cpu, empty } = timeStock(index, queries);
    const mean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    note('stock FTS5 unicode61, same chunks: CPU p50 / mean', `${fmt(percentile(cpu, 50), 2)} / ${fmt(mean, 2)} ms; ${empty} of ${queries.length} find nothing (built in ${fmt(index.buildMs / 1000, 1)} s)`);
  } finally {
    index.close();
  }
}
