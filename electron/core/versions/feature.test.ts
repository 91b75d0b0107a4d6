/** The versions page feature on pages stored before it (what kb migration 008 once did itself). */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { refreshPageFeatures } from '../ingest/page-features';
import { kbMigrations } from '../store/migrations/kb';
import { migrate } from '../store/migrate';
import { tempDir } from '../testing/temp';
import { versionPages } from './feature';

describe('the versions page feature', () => {
  it('fills in the version facts of the pages already stored, from their metadata, file name and title', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 7);
    db.exec(`
      INSERT INTO documents (id, folder, rel_path, size, mtime_ms, status, indexed_at) VALUES
        (1, '/n', 'hr/travel_policy_v1.md', 1, 1, 'indexed', 'now'),
        (2, '/n', 'hr/travel-policy.md', 1, 1, 'indexed', 'now'),
        (3, '/n', 'notes/retry.md', 1, 1, 'indexed', 'now');
      INSERT INTO pages (id, document_id, path, title, kind, text, metadata, title_tokens, path_tokens) VALUES
        (1, 1, 'wiki/hr/travel_policy_v1.md', 'Travel policy', 'markdown', 'x', '{}', '', ''),
        (2, 2, 'wiki/hr/travel-policy.md', 'Travel policy', 'markdown', 'x',
           '{"version":"2024版","effective":"2024-01-01","supersedes":["travel_policy_v1.md"]}', '', ''),
        (3, 3, 'wiki/notes/retry.md', 'Retry', 'markdown', 'x', '{}', '', '');
    `);
    migrate(db, kbMigrations, 'kb', kbMigrations.length);
    expect(refreshPageFeatures(db, [versionPages])).toEqual(['versions']);
    const rows = db.prepare(`SELECT page_id, label, number, year, effective, expires, has_facts, name_key, title_key FROM page_versions ORDER BY page_id`).raw().all();
    expect(rows).toEqual([
      [1, 'v1', '1', null, null, null, 1, 'travel policy', 'travel policy'],
      [2, '2024版', null, 2024, '2024-01-01', null, 1, 'travel policy', 'travel policy'],
      [3, null, null, null, null, null, 0, 'retry', 'retry'],
    ]);
    expect(db.prepare(`SELECT page_id, relation, target FROM page_version_links`).raw().all()).toEqual([[2, 'supersedes', 'travel policy v1']]);
    db.close();
  });
});
