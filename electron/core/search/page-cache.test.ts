/**
 * Pages read by a search are kept on the connection until the knowledge base changes (passages.ts
 * loadPages): a large manual among the results is read and decoded once, not on every search, and a
 * page re-indexed by another connection (an ingest worker) is read afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, statementsRun } from '../store/statements';
import { loadPages } from './passages';
import { makeKb, openKbFile, startCore, type TestCore } from './testing/test-kb';

let core: TestCore;
let kb: { id: string; folders: Record<string, string> };
let db: Database.Database;
beforeAll(async () => {
  core = await startCore('none');
  const notes = { 'manual.md': '# Manual\n\nThe first edition says hello.\n', 'other.md': '# Other\n\nNothing.\n' };
  kb = await makeKb(core, 'pages', { notes });
  db = openKbFile(core, kb.id);
  countStatements(db);
}, 60_000);
afterAll(async () => {
  db?.close();
  await core?.close();
});

const idOf = (relPath: string): number => db.prepare(`SELECT id FROM pages WHERE path = ?`).pluck().get(`wiki/${relPath}`) as number;

describe('pages kept between searches', () => {
  it('are read from the database once, then from memory, in the order asked', () => {
    const ids = [idOf('other.md'), idOf('manual.md')];
    const before = statementsRun(db);
    const first = loadPages(db, ids);
    const afterFirst = statementsRun(db);
    const second = loadPages(db, [...ids, ids[0]!]);
    // the first read checks the knowledge base's state and reads both pages; the second only checks
    expect(afterFirst - before).toBe(2);
    expect(statementsRun(db) - afterFirst).toBe(1);
    expect([...second.keys()]).toEqual(ids);
    expect(second.get(ids[1]!)).toBe(first.get(ids[1]!));
    expect(second.get(ids[1]!)!.text).toContain('first edition');
  });

  it('are read again once another connection has re-indexed them', async () => {
    const id = idOf('manual.md');
    expect(loadPages(db, [id]).get(id)!.text).toContain('first edition');
    fs.writeFileSync(path.join(kb.folders.notes!, 'manual.md'), '# Manual\n\nThe second edition says goodbye.\n');
    const status = await core.sift.ingest(kb.id);
    expect(status.state).toBe('done');
    const page = [...loadPages(db, [idOf('manual.md')]).values()][0]!;
    expect(page.text).toContain('second edition');
    expect(page.text).not.toContain('first edition');
  });

  it('leave out ids that are no page', () => {
    expect([...loadPages(db, [idOf('other.md'), 987_654]).keys()]).toEqual([idOf('other.md')]);
  });
});
