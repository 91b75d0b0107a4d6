/**
 * Large pages read by a search are kept on the connection until the knowledge base changes (passages.ts
 * loadPages): a large manual among the results is read and decoded once, not on every search, and a
 * page re-indexed by another connection (an ingest worker) is read afresh. Small pages are read each time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, statementsRun } from '../store/statements';
import { loadPages, PAGE_CACHE_FROM } from './passages';
import { makeKb, openKbFile, startCore, type TestCore } from './testing/test-kb';

let core: TestCore;
let kb: { id: string; folders: Record<string, string> };
let db: Database.Database;
beforeAll(async () => {
  core = await startCore('none');
  const notes = { 'manual.md': manual('first'), 'other.md': '# Other\n\nNothing.\n' };
  kb = await makeKb(core, 'pages', { notes });
  db = openKbFile(core, kb.id);
  countStatements(db);
}, 60_000);
afterAll(async () => {
  db?.close();
  await core?.close();
});

/** A manual longer than PAGE_CACHE_FROM: its edition named at the top, then many sections. */
function manual(edition: string): string {
  const sections = Array.from({ length: 200 }, (_, n) => `## Part ${n}\n\nThe ${edition} edition explains part ${n} at length.\n`);
  const text = `# Manual\n\nThe ${edition} edition says hello.\n\n${sections.join('\n')}`;
  return text.length > PAGE_CACHE_FROM ? text : text.repeat(Math.ceil(PAGE_CACHE_FROM / text.length) + 1);
}

const idOf = (relPath: string): number =>
  db.prepare(`SELECT id FROM pages WHERE path = ?`).pluck().get(`wiki/${relPath}`) as number;

describe('pages kept between searches', () => {
  it('are read from the database once when large, then from memory, in the order asked', () => {
    const [small, large] = [idOf('other.md'), idOf('manual.md')];
    const first = loadPages(db, [large]);
    expect(first.get(large)!.text.length).toBeGreaterThan(PAGE_CACHE_FROM);
    let before = statementsRun(db);
    const second = loadPages(db, [large, large]);
    // only the knowledge base's state is read: the page comes from memory, the same object
    expect(statementsRun(db) - before).toBe(1);
    expect(second.get(large)).toBe(first.get(large));
    expect(second.get(large)!.text).toContain('first edition');
    // a small page is read every time (the state, then the page)
    loadPages(db, [small]);
    before = statementsRun(db);
    const both = loadPages(db, [small, large]);
    expect(statementsRun(db) - before).toBe(2);
    expect([...both.keys()]).toEqual([small, large]);
    expect(both.get(small)!.text).toContain('Nothing');
  });

  it('are read again once another connection has re-indexed them', async () => {
    const id = idOf('manual.md');
    expect(loadPages(db, [id]).get(id)!.text).toContain('first edition');
    fs.writeFileSync(path.join(kb.folders.notes!, 'manual.md'), manual('second'));
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
