/**
 * A batch of files on a real knowledge-base file: one result per file in order, and one
 * transaction — a store failure in the middle keeps nothing of the batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { toIndexText } from '../text/tokenize';
import { tempDir } from '../testing/temp';
import { indexBatch, newWriteLock } from './batch';
import { pagePathOf, type FileJob } from './prepare';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function setup(files: Record<string, string | Buffer>): { db: Database.Database; jobs: (rel: string) => FileJob } {
  const root = tempDir();
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), content);
  const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
  open.push(db);
  const jobs = (rel: string): FileJob => ({ folder: root, relPath: rel, absPath: path.join(root, rel), pagePath: pagePathOf('', rel), maxFileBytes: 1 << 20, knownSha256: null, size: 0 });
  return { db, jobs };
}

describe('indexBatch', () => {
  it('answers one result per file, in order, and stores the pages', async () => {
    const { db, jobs } = setup({ 'a.md': '# A\n\nalpha', 'empty.md': '', 'bin.txt': Buffer.from([0, 1, 2, 0, 3]), 'c.md': '# C\n\ngamma' });
    const results = await indexBatch(db, ['a.md', 'empty.md', 'gone.md', 'bin.txt', 'c.md'].map(jobs), { lock: newWriteLock() });
    expect(results).toEqual(['indexed', 'skipped', 'absent', 'skipped', 'indexed']);
    expect(db.prepare(`SELECT path FROM pages ORDER BY path`).pluck().all()).toEqual(['wiki/a.md', 'wiki/c.md']);
    expect(db.prepare(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'gamma'`).pluck().all()).toHaveLength(1);
  });

  it('keeps nothing of a batch when the store fails in the middle of it', async () => {
    const { db, jobs } = setup({ 'a.md': '# A\n\nalpha', 'b.md': '# B\n\nbeta', 'c.md': '# C\n\ngamma' });
    db.exec(`CREATE TRIGGER fail_b BEFORE INSERT ON pages WHEN NEW.path = 'wiki/b.md' BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`);
    await expect(indexBatch(db, ['a.md', 'b.md', 'c.md'].map(jobs))).rejects.toThrow(/disk full/);
    expect(db.prepare(`SELECT count(*) FROM documents`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM chunks`).pluck().get()).toBe(0);
    db.exec(`DROP TRIGGER fail_b`);
    expect(await indexBatch(db, ['a.md', 'b.md', 'c.md'].map(jobs))).toEqual(['indexed', 'indexed', 'indexed']);
  });

  it('writes the keyword rows of a whole batch as one index segment', async () => {
    // Several chunks per file: rows written between other inserts would each become a segment.
    const note = (n: number) => `# Note ${n}\n\n` + Array.from({ length: 40 }, (_, i) => `Sentence ${i} of note ${n} about gateway retries.`).join(' ');
    const names = Array.from({ length: 6 }, (_, n) => `n${n}.md`);
    const { db, jobs } = setup(Object.fromEntries(names.map((name, n) => [name, note(n)])));
    expect(await indexBatch(db, names.map(jobs))).toEqual(names.map(() => 'indexed'));
    expect(db.prepare(`SELECT count(*) FROM chunks`).pluck().get()).toBeGreaterThan(12);
    expect(segmentCount(db)).toBe(1);
    const gateway = toIndexText('gateway'); // as stemmed for the index
    expect(db.prepare(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`).pluck().get(gateway)).toBe(db.prepare(`SELECT count(*) FROM chunks`).pluck().get());
  });

  it('writes a section-index row per section from its chunks\' tokens, as one segment; a re-index replaces it', async () => {
    const [first, last] = [['alpha', 'bravo', 'charlie', 'delta'], ['xray', 'yankee', 'zulu', 'whisky']];
    const sentences = (word: string) => Array.from({ length: 40 }, (_, i) => `Sentence ${i} about ${word}.`).join(' ');
    const note = (n: number, word: string) => `# Note ${n}\n\n${first[n]}. ${sentences(word)} ${last[n]}.`;
    const names = Array.from({ length: 4 }, (_, n) => `n${n}.md`);
    const { db, jobs } = setup(Object.fromEntries(names.map((name, n) => [name, note(n, 'gateway')])));
    await indexBatch(db, names.map(jobs));
    expect(segmentCount(db, 'sections_fts')).toBe(1);
    const find = (q: string) => db.prepare(`SELECT rowid FROM sections_fts WHERE sections_fts MATCH ? ORDER BY rowid`).pluck().all(q);
    const sectionsOf = (page: string) =>
      db.prepare(`SELECT DISTINCT c.section_id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.path = ?`).pluck().all(page);
    const gateway = `"${toIndexText('gateway')}"`;
    expect(find(gateway)).toHaveLength(4);
    // A note's first and last words lie in different chunks of its one section; its one row holds both.
    const n0 = sectionsOf('wiki/n0.md');
    expect(n0).toHaveLength(1);
    expect(db.prepare(`SELECT count(*) FROM chunks WHERE section_id = ?`).pluck().get(n0[0])).toBeGreaterThan(1);
    expect(find(`alpha AND ${toIndexText('xray')}`)).toEqual(n0);
    fs.writeFileSync(jobs('n0.md').absPath, note(0, 'lighthouse'));
    await indexBatch(db, [jobs('n0.md')]);
    expect(find(gateway)).toHaveLength(3);
    expect(find(`"${toIndexText('lighthouse')}"`)).toEqual(sectionsOf('wiki/n0.md'));
    fs.rmSync(jobs('n1.md').absPath);
    await indexBatch(db, [jobs('n1.md')]);
    expect(find(gateway)).toHaveLength(2);
  });
});

/**
 * Segments of the keyword index. FTS5 numbers its data rows (segment id << 37) + page; the averages
 * and structure records have segment 0, and tombstone pages ids of 2^16 and up.
 */
function segmentCount(db: Database.Database, table = 'chunks_fts'): number {
  const sql = `SELECT count(DISTINCT id >> 37) FROM ${table}_data WHERE id >> 37 BETWEEN 1 AND 65535`;
  return db.prepare(sql).pluck().get() as number;
}
