import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/temp';
import { migrate } from '../../migrate';
import { kbMigrations } from '.';

describe('knowledge-base file migrations', () => {
  it('001 creates the metadata table', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 1);
    db.prepare("INSERT INTO kb_meta VALUES ('kb_id', 'k1')").run();
    expect(db.prepare("SELECT value FROM kb_meta WHERE key = 'kb_id'").pluck().get()).toBe('k1');
    expect(() => db.prepare("INSERT INTO kb_meta VALUES ('kb_id', 'k2')").run()).toThrow(/UNIQUE/);
    db.close();
  });
});

describe('003: contentless keyword index', () => {
  it('moves every indexed chunk over, drops the token copy, and deletes by rowid', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 2);
    db.exec(`
      INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (1, '/n', 'a.md', 1, 1, 'indexed', 'now');
      INSERT INTO pages (id, document_id, path, title, kind, text, title_tokens, path_tokens) VALUES (1, 1, 'wiki/a.md', 'A', 'markdown', 'x', 'gateway', 'a md');
      INSERT INTO sections (id, page_id, idx, start, end, heading_path) VALUES (1, 1, 0, 0, 1, '[]');
      INSERT INTO chunks (id, page_id, section_id, idx, start, end, hash, tokens) VALUES (7, 1, 1, 0, 0, 1, 'h', 'e_conn_reset e conn reset');
      INSERT INTO chunks_fts (rowid, tokens, title, path) SELECT id, tokens, title, path FROM chunk_search;
    `);
    migrate(db, kbMigrations, 'kb', 3);
    const find = (q: string) => db.prepare(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?`).pluck().all(q);
    expect(find('"e_conn_reset"')).toEqual([7]);
    expect(find('title:"gateway"')).toEqual([7]);
    const columns = (db.prepare(`PRAGMA table_info(chunks)`).all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('tokens');
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('chunk_search', 'chunks_by_section')`).pluck().all()).toEqual(['chunks_by_section']);
    db.prepare(`DELETE FROM chunks_fts WHERE rowid = 7`).run();
    expect(find('"e_conn_reset"')).toEqual([]);
    db.close();
  });
});

describe('004: keyword vocabulary', () => {
  it('counts the chunks that contain each term', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 4);
    db.exec(`INSERT INTO chunks_fts (rowid, tokens, title, path) VALUES (1, 'a b', '', ''), (2, 'a c', '', '')`);
    expect(db.prepare(`SELECT term, doc FROM chunks_vocab ORDER BY term`).raw().all()).toEqual([['a', 2], ['b', 1], ['c', 1]]);
    db.close();
  });
});

describe('005: keyword index write buffer', () => {
  // 150,000 distinct terms: several MiB of pending index, over FTS5's default 1 MiB buffer.
  const bulkInsert = `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
    INSERT INTO chunks_fts (rowid, tokens, title, path) SELECT i, 'a' || i || ' b' || i || ' c' || i, '', '' FROM n`;
  const segments = (db: Database.Database) =>
    db.prepare(`SELECT count(DISTINCT id >> 37) FROM chunks_fts_data WHERE id >> 37 BETWEEN 1 AND 65535`).pluck().get();

  it('writes one transaction of new terms as one segment where FTS5 alone would write several', () => {
    const before = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(before, kbMigrations, 'kb', 4);
    before.exec(bulkInsert);
    expect(segments(before)).toBeGreaterThan(1);
    before.close();

    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 5);
    expect(db.prepare(`SELECT v FROM chunks_fts_config WHERE k = 'hashsize'`).pluck().get()).toBe(16 * 1024 * 1024);
    db.exec(bulkInsert);
    expect(segments(db)).toBe(1);
    db.close();
  });
});

describe('006: section keyword index', () => {
  it('adds a contentless section index that deletes by rowid and writes a transaction as one segment', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 6);
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
      INSERT INTO sections_fts (rowid, tokens, title) SELECT i, 'a' || i || ' b' || i || ' c' || i, 'gateway' FROM n`);
    const segments = `SELECT count(DISTINCT id >> 37) FROM sections_fts_data WHERE id >> 37 BETWEEN 1 AND 65535`;
    expect(db.prepare(segments).pluck().get()).toBe(1);
    const find = (q: string) => db.prepare(`SELECT rowid FROM sections_fts WHERE sections_fts MATCH ?`).pluck().all(q);
    expect(find('"a7"')).toEqual([7]);
    expect(find('title:"gateway"')).toHaveLength(50000);
    db.prepare(`DELETE FROM sections_fts WHERE rowid = 7`).run();
    expect(find('"a7"')).toEqual([]);
    db.close();
  });
});

describe('007: glossary entries', () => {
  it('creates the entry and key tables, which go with their page', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(db, kbMigrations, 'kb', 6);
    db.prepare(`INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (1, '/n', 'docs/术语表.md', 1, 1, 'indexed', 'now')`).run();
    db.prepare(`INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES (1, 1, 'wiki/docs/术语表.md', 'T', 'markdown', '**RRF**: fusion.', '{}', '', '')`).run();
    migrate(db, kbMigrations, 'kb', 7);
    // A migration carries its own SQL only: the entries of stored pages are the glossary feature's to write (feature.test.ts).
    expect(db.prepare(`SELECT count(*) FROM glossary_entries`).pluck().get()).toBe(0);
    db.prepare(`INSERT INTO glossary_entries (id, page_id, term, definition, start, end) VALUES (1, 1, 'RRF', 'fusion.', 0, 16)`).run();
    db.prepare(`INSERT INTO glossary_keys (key, entry_id) VALUES ('rrf', 1)`).run();
    db.prepare(`DELETE FROM pages WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM glossary_entries`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM glossary_keys`).pluck().get()).toBe(0);
    db.close();
  });
});

describe('008: page versions', () => {
  it('creates the version and link tables, which go with their page', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(db, kbMigrations, 'kb', 7);
    db.exec(`
      INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (1, '/n', 'hr/travel_policy_v1.md', 1, 1, 'indexed', 'now');
      INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES
        (1, 1, 'wiki/hr/travel_policy_v1.md', 'Travel policy', 'markdown', 'x', '{}', '', '');
    `);
    migrate(db, kbMigrations, 'kb', 8);
    expect(db.prepare(`SELECT count(*) FROM page_versions`).pluck().get()).toBe(0);
    db.exec(`
      INSERT INTO page_versions (page_id, label, number, has_facts, name_key, title_key, file_key, title_norm)
        VALUES (1, 'v1', '1', 1, 'travel policy', 'travel policy', 'travel policy v1', 'travel policy');
      INSERT INTO page_version_links (page_id, relation, target) VALUES (1, 'superseded_by', 'travel policy');
    `);
    expect(() => db.prepare(`INSERT INTO page_version_links (page_id, relation, target) VALUES (1, 'replaces', 'x')`).run()).toThrow(/CHECK/);
    db.prepare(`DELETE FROM pages WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM page_versions`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM page_version_links`).pluck().get()).toBe(0);
    db.close();
  });
});

describe('009: version evidence', () => {
  it('adds what backs a version and a sketch of the text, empty for rows written before', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 8);
    db.exec(`
      INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (1, '/n', 'rfc-1918.md', 1, 1, 'indexed', 'now');
      INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES (1, 1, 'wiki/rfc-1918.md', 'RFC', 'markdown', 'x', '{}', '', '');
      INSERT INTO page_versions (page_id, label, year, has_facts, name_key, title_key, file_key, title_norm) VALUES (1, '1918', 1918, 1, 'rfc', 'rfc', 'rfc 1918', 'rfc');
    `);
    migrate(db, kbMigrations, 'kb', 9);
    expect(db.prepare(`SELECT declared, sketch FROM page_versions`).raw().all()).toEqual([[0, null]]);
    db.prepare(`UPDATE page_versions SET declared = 2, sketch = 'a1 b2'`).run();
    expect(db.prepare(`SELECT declared, sketch FROM page_versions`).raw().all()).toEqual([[2, 'a1 b2']]);
    db.close();
  });
});

describe('010: ocr', () => {
  it('adds an empty OCR column to pages written before, and a cache keyed by content hash, model and page', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 9);
    db.exec(`
      INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (1, '/n', 'scan.pdf', 1, 1, 'indexed', 'now');
      INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES (1, 1, 'wiki/scan.pdf', 'Scan', 'pdf', 'x', '{}', '', '');
    `);
    migrate(db, kbMigrations, 'kb', 10);
    expect(db.prepare(`SELECT ocr FROM pages`).pluck().all()).toEqual([null]);
    const put = db.prepare(`INSERT INTO ocr_cache (sha256, model, page, result, seconds, created_at) VALUES (?, ?, ?, '{}', 1.5, 'now')`);
    put.run('ab', 'm1', 1);
    put.run('ab', 'm2', 1);
    expect(() => put.run('ab', 'm1', 1)).toThrow(/UNIQUE|PRIMARY/);
    db.prepare(`DELETE FROM pages`).run();
    expect(db.prepare(`SELECT count(*) FROM ocr_cache`).pluck().get()).toBe(2);
    db.close();
  });
});

describe('011: ocr cache seen', () => {
  it('gives every cached OCR result the time it was last needed, rows written before counting from when written', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 10);
    db.prepare(`INSERT INTO ocr_cache (sha256, model, page, result, seconds, created_at) VALUES ('ab', 'm1', 1, '{}', 1.5, '2026-01-02T03:04:05.000Z')`).run();
    migrate(db, kbMigrations, 'kb', 11);
    expect(db.prepare(`SELECT seen_at FROM ocr_cache`).pluck().all()).toEqual(['2026-01-02T03:04:05.000Z']);
    db.close();
  });
});

describe('012: keyword index delete merge', () => {
  it('sets deletemerge in both keyword indexes, keeping their write buffer, and rows still delete', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 11);
    const config = (table: string) => Object.fromEntries((db.prepare(`SELECT k, v FROM ${table}_config`).raw().all() as [string, number][]));
    expect(config('chunks_fts').deletemerge).toBeUndefined();
    migrate(db, kbMigrations, 'kb', 12);
    for (const table of ['chunks_fts', 'sections_fts']) expect(config(table)).toMatchObject({ deletemerge: 50, hashsize: 16 * 1024 * 1024 });
    db.exec(`INSERT INTO sections_fts (rowid, tokens, title) VALUES (3, 'retry budget', 'notes')`);
    db.prepare(`DELETE FROM sections_fts WHERE rowid = 3`).run();
    expect(db.prepare(`SELECT rowid FROM sections_fts WHERE sections_fts MATCH 'retry'`).all()).toEqual([]);
    db.close();
  });
});
