/**
 * Page features on a knowledge base made before them: refreshPageFeatures writes them from the stored
 * pages once, records their format, runs again when a format changes, and reads a page's text only
 * when a feature asks for it.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { kbMigrations } from '../store/migrations/kb';
import { migrate } from '../store/migrate';
import { tempDir } from '../testing/temp';
import { refreshPageFeatures, type PageFeature } from './page-features';

function storedKb(): Database.Database {
  const db = new Database(path.join(tempDir(), 'kb.sqlite'));
  db.pragma('foreign_keys = ON');
  migrate(db, kbMigrations, 'kb', kbMigrations.length);
  db.exec(`
    CREATE TABLE seen (page_id INTEGER REFERENCES pages(id) ON DELETE CASCADE, what TEXT);
    INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES
      (1, '/n', 'a.md', 1, 1, 'indexed', 'now'), (2, '/n', 'sub/b.md', 1, 1, 'indexed', 'now');
    INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES
      (1, 1, 'wiki/a.md', 'A', 'markdown', 'alpha text', '{"tag":"x"}', '', ''),
      (2, 2, 'wiki/sub/b.md', 'B', 'text', 'beta text', '{}', '', '');
  `);
  return db;
}

/** A feature that notes what it was given; reads the text of pages tagged x only. */
function noting(format: number, texts: string[]): PageFeature {
  return {
    name: 'noting',
    format,
    write(db, pageId, page) {
      const text = page.metadata.tag === 'x' ? page.text() : '-';
      if (text !== '-') texts.push(text);
      db.prepare(`INSERT INTO seen (page_id, what) VALUES (?, ?)`).run(pageId, `${page.relPath} ${page.title} ${page.kind} ${text} v${format}`);
    },
    clear(db) {
      db.exec(`DELETE FROM seen`);
    },
  };
}

const seen = (db: Database.Database) => db.prepare(`SELECT page_id, what FROM seen ORDER BY page_id`).raw().all();

describe('refreshPageFeatures', () => {
  it('writes a feature from the stored pages once, and again only when its format changes', () => {
    const db = storedKb();
    const texts: string[] = [];
    expect(refreshPageFeatures(db, [noting(1, texts)])).toEqual(['noting']);
    expect(seen(db)).toEqual([[1, 'a.md A markdown alpha text v1'], [2, 'sub/b.md B text - v1']]);
    expect(texts).toEqual(['alpha text']);
    expect(refreshPageFeatures(db, [noting(1, texts)])).toEqual([]);
    expect(texts).toHaveLength(1);
    expect(refreshPageFeatures(db, [noting(2, texts)])).toEqual(['noting']);
    expect(seen(db)).toEqual([[1, 'a.md A markdown alpha text v2'], [2, 'sub/b.md B text - v2']]);
    db.close();
  });

  it('keeps nothing of a refresh that fails, and tries again at the next open', () => {
    const db = storedKb();
    const broken: PageFeature = { ...noting(1, []), write: () => { throw new Error('disk full'); } };
    expect(() => refreshPageFeatures(db, [broken])).toThrow(/disk full/);
    expect(db.prepare(`SELECT value FROM kb_meta WHERE key = 'feature_format:noting'`).get()).toBeUndefined();
    expect(refreshPageFeatures(db, [noting(1, [])])).toEqual(['noting']);
    expect(seen(db)).toHaveLength(2);
    db.close();
  });
});
