/**
 * The per-knowledge-base SQLite files: one file each under `<data dir>/kbs/`, opened lazily and
 * kept open. Separate files keep BM25 statistics apart and make deleting a knowledge base cheap.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { dataPaths } from '../base/paths';
import { openDatabase } from './open';
import { kbMigrations } from './migrations/kb';
import { settleKeywordTotals } from './keyword-totals';

/** Options of {@link KbFiles}. */
export interface KbFilesOptions {
  /** Run on every file when it is opened, after its migrations (the facade brings page features up to date).
   *  Default nothing. */
  onOpen?: (db: Database.Database) => void;
}

/** Opens, caches and deletes knowledge-base database files. */
export class KbFiles {
  private readonly open = new Map<string, Database.Database>();
  private readonly paths: ReturnType<typeof dataPaths>;

  constructor(
    dataDir: string,
    private readonly options: KbFilesOptions = {},
  ) {
    this.paths = dataPaths(dataDir);
  }

  /** The file of knowledge base `id`. */
  file(id: string): string {
    return this.paths.kbDb(id);
  }

  /** The open database of knowledge base `id`, created and migrated on first use. */
  get(id: string): Database.Database {
    let db = this.open.get(id);
    if (!db) {
      db = openDatabase(this.file(id), kbMigrations, `the index of knowledge base ${id}`, { vectors: true });
      db.prepare(`INSERT OR IGNORE INTO kb_meta (key, value) VALUES ('kb_id', ?)`).run(id);
      settleKeywordTotals(db); // a deficit a crash left pending (store/keyword-totals.ts)
      try {
        this.options.onOpen?.(db);
      } catch (err) {
        db.close();
        throw err;
      }
      this.open.set(id, db);
    }
    return db;
  }

  /** Close and remove the file of knowledge base `id` (with its WAL and shared-memory files). */
  remove(id: string): void {
    this.close(id);
    const file = this.file(id);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }

  /** Close one knowledge base's file, if open. */
  close(id: string): void {
    this.open.get(id)?.close();
    this.open.delete(id);
  }

  /** Close every open file. */
  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }
}
