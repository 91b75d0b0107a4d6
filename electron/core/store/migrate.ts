/**
 * Forward-only schema migrations. One file per version; each runs in its own transaction that
 * also sets `PRAGMA user_version`, so a crash leaves the database at the previous version.
 * A database whose version is newer than the app knows is refused, never touched.
 */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';

/** One schema step: `up` turns version `version - 1` into `version`. */
export interface Migration {
  version: number;
  /** What the step does, in a few words (shown in logs and errors). */
  name: string;
  up(db: Database.Database): void;
}

/** Read the schema version stored in the database header. */
export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Bring `db` up to the last migration of `migrations` (or to `target` when given).
 * @param label names the database in error messages, e.g. `the app database`.
 * @returns the version the database is at afterwards.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], label: string, target?: number): number {
  checkSequence(migrations, label);
  const latest = target ?? migrations.length;
  const current = schemaVersion(db);
  if (current > migrations.length) {
    throw new SiftError(
      'database_newer',
      `${label} was written by a newer version of Sift (schema ${current}; this version knows up to ${migrations.length}). Update Sift to open it.`,
    );
  }
  for (const m of migrations) {
    if (m.version <= current || m.version > latest) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return schemaVersion(db);
}

function checkSequence(migrations: readonly Migration[], label: string): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations of ${label} are out of order at ${m.name}: expected version ${i + 1}`);
  });
}
