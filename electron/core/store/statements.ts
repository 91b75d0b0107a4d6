/** Prepared statements kept per connection, so hot paths compile their SQL once. */
import type Database from 'better-sqlite3';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** `db.prepare(sql)`, compiled once per connection: an ingest writes the same few statements 100k times. */
export function cached(db: Database.Database, sql: string): Database.Statement {
  let byText = statements.get(db);
  if (!byText) statements.set(db, (byText = new Map()));
  let statement = byText.get(sql);
  if (!statement) byText.set(sql, (statement = db.prepare(sql)));
  return statement;
}
