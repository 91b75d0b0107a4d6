/** The glossary page feature on pages stored before it (what kb migration 007 once did itself). */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { refreshPageFeatures } from '../ingest/page-features';
import { kbMigrations } from '../store/migrations/kb';
import { migrate } from '../store/migrate';
import { tempDir } from '../testing/temp';
import { glossaryPages } from './feature';

describe('the glossary page feature', () => {
  it('reads the entries of glossary pages already stored, keys them, and drops them with their page', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(db, kbMigrations, 'kb', 6);
    const glossary = '# Words\n\n**RRF** (倒数排名融合): rank fusion.\n';
    const doc = db.prepare(`INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES (?, '/n', ?, 1, 1, 'indexed', 'now')`);
    doc.run(1, 'docs/术语表.md');
    doc.run(2, 'notes.md');
    const page = db.prepare(`INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES (?, ?, ?, 'T', 'markdown', ?, ?, '', '')`);
    page.run(1, 1, 'wiki/docs/术语表.md', glossary, '{}');
    page.run(2, 2, 'wiki/notes.md', '**RRF**: not a glossary page.', '{}');
    migrate(db, kbMigrations, 'kb', kbMigrations.length);
    expect(refreshPageFeatures(db, [glossaryPages])).toEqual(['glossary']);
    const entries = db.prepare(`SELECT id, page_id AS pageId, term, aliases, definition, start, end FROM glossary_entries`).all() as { id: number; start: number; end: number }[];
    expect(entries).toEqual([{ id: 1, pageId: 1, term: 'RRF', aliases: '["倒数排名融合"]', definition: 'rank fusion.', start: 9, end: 39 }]);
    expect(glossary.slice(entries[0]!.start, entries[0]!.end)).toBe('**RRF** (倒数排名融合): rank fusion.');
    expect(db.prepare(`SELECT key FROM glossary_keys ORDER BY key`).pluck().all()).toEqual(['rrf', '倒数排名融合']);
    db.prepare(`DELETE FROM pages WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM glossary_entries`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM glossary_keys`).pluck().get()).toBe(0);
    db.close();
  });
});
