/**
 * Opening SQLite files the same way everywhere: WAL, foreign keys, a busy timeout, sqlite-vec
 * loaded, and migrations run before anyone reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { SiftError } from '../../../shared/errors';
import { migrate, type Migration } from './migrate';
import { countStatements } from './statements';
import { createPrivateFile, PRIVATE_DIR_MODE, sqliteFiles, tightenFile } from './private';

/** Options of {@link openDatabase}. */
export interface OpenOptions {
  /** Load the sqlite-vec extension (needed by knowledge-base files). Default false. */
  vectors?: boolean;
  /** Open read-only; no migrations are run. Default false. */
  readonly?: boolean;
}

/**
 * SQLite's page cache per connection, in KiB (16 MB as better-sqlite3 builds SQLite). A keyword search
 * reads the posting-list pages of common terms again and again; in a large knowledge base 16 MB could not
 * keep them, and they were read back from the file on every search. bench:search's 1M-chunk knowledge
 * base, connections interleaved query by query, CPU p50: keyword 44.3 ms (16 MB) → 35.5 (32 MB), 33.3
 * (64 MB), 36.6 (128 MB); hybrid 50.8 → 43.2 (32 MB); at 100k, hybrid 11.3 → 10.8. Memory is taken only
 * as pages are read, so a small knowledge base never uses it.
 */
export const PAGE_CACHE_KIB = 32 * 1024;

/** Open (creating if needed) a database file and migrate it to the latest schema. */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  label: string,
  options: OpenOptions = {},
): Database.Database {
  if (!options.readonly) {
    // Owner-only before SQLite opens it: the -wal and -shm files it makes take the database's mode.
    // A missing folder is made owner-only; an existing one is not changed here (it may not be Sift's:
    // createSift tightens the data folder's own).
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    createPrivateFile(file);
    sqliteFiles(file).forEach(tightenFile);
  }
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (err) {
    throw new SiftError('io_error', `cannot open ${label} at ${file}: ${(err as Error).message}`);
  }
  try {
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    if (!options.readonly) db.pragma('synchronous = NORMAL');
    if (options.vectors) sqliteVec.load(db);
    countStatements(db);
    if (!options.readonly) migrate(db, migrations, label);
    if (!options.readonly) sqliteFiles(file).forEach(tightenFile);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
