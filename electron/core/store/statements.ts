/**
 * Prepared statements kept per connection, so hot paths compile their SQL once, and a count of the
 * statements each connection has run, so a search can say what it cost in SQL (its stage figures).
 */
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

/**
 * What identifies the database's contents as this connection sees them: `data_version` moves with a commit
 * by any other connection (an ingest worker), `total_changes()` with a change by this one. Anything kept
 * per connection between searches (term figures, the vector index, page texts) is dropped when it moves.
 * One statement.
 */
export function contentState(db: Database.Database): string {
  const sql = `SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()`;
  return cached(db, sql).pluck().get() as string;
}

const counters = new WeakMap<Database.Database, { runs: number }>();
const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * Count every execution of a statement prepared on `db` from now on (`run`, `get`, `all`, `iterate`;
 * `db.exec` and pragmas are not statements a search runs). Idempotent. The cost is one call per
 * execution; openDatabase counts on every connection.
 */
export function countStatements(db: Database.Database): void {
  if (counters.has(db)) return;
  const counter = { runs: 0 };
  counters.set(db, counter);
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    for (const name of RUNS) {
      const original = statement[name] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        counter.runs++;
        return original.apply(statement, args);
      };
    }
    return statement;
  }) as typeof db.prepare;
}

/** Statements `db` has run since countStatements (0 on a connection that does not count them). */
export function statementsRun(db: Database.Database): number {
  return counters.get(db)?.runs ?? 0;
}
