import type Database from 'better-sqlite3';
import type { Migration } from '../../migrate';
import { hasVersionFacts, pageVersionRecord, type PageVersionRecord } from '../../../ingest/versions';

/**
 * The version facts of every page (issue #15 item 4): the version named by its front matter or file
 * name, the days it is in force, the documents it supersedes or is superseded by (`page_version_links`,
 * looked up by the key a link names), and the keys that group the versions of one document. Ingest
 * writes a row per page (ingest/page-store.ts); statuses (current, superseded, expired) are worked out
 * when read, because they depend on the day and on the other versions. Existing pages are filled in
 * here from what the store already holds (metadata, file name, title), so no page is read again.
 */
export const m008: Migration = {
  version: 8,
  name: 'page versions',
  up(db) {
    db.exec(`
      CREATE TABLE page_versions (
        page_id   INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
        label     TEXT,
        number    TEXT,
        year      INTEGER,
        effective TEXT,
        expires   TEXT,
        has_facts INTEGER NOT NULL,
        name_key  TEXT NOT NULL,
        title_key TEXT NOT NULL,
        file_key  TEXT NOT NULL,
        title_norm TEXT NOT NULL
      );
      CREATE INDEX page_versions_by_name ON page_versions(name_key, has_facts);
      CREATE INDEX page_versions_by_title ON page_versions(title_key, has_facts);
      CREATE INDEX page_versions_by_file ON page_versions(file_key);
      CREATE INDEX page_versions_by_title_norm ON page_versions(title_norm);
      CREATE TABLE page_version_links (
        page_id  INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        relation TEXT NOT NULL CHECK (relation IN ('supersedes', 'superseded_by')),
        target   TEXT NOT NULL
      );
      CREATE INDEX page_version_links_by_target ON page_version_links(target);
      CREATE INDEX page_version_links_by_page ON page_version_links(page_id);
    `);
    const insert = inserter(db);
    const pages = db.prepare(
      `SELECT p.id, p.title, p.metadata, d.rel_path AS relPath FROM pages p JOIN documents d ON d.id = p.document_id`,
    );
    for (const row of pages.all() as { id: number; title: string; metadata: string; relPath: string }[]) {
      insert(row.id, pageVersionRecord(JSON.parse(row.metadata) as Record<string, unknown>, row.relPath, row.title));
    }
  },
};

/** Insert the version row and links of one page. (Ingest has its own writer, page-store.ts: a migration keeps
 *  doing what it did when it shipped.) */
function inserter(db: Database.Database): (pageId: number, v: PageVersionRecord) => void {
  const row = db.prepare(
    `INSERT INTO page_versions (page_id, label, number, year, effective, expires, has_facts, name_key, title_key, file_key, title_norm)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const link = db.prepare(`INSERT INTO page_version_links (page_id, relation, target) VALUES (?, ?, ?)`);
  return (pageId, v) => {
    const facts = hasVersionFacts(v) ? 1 : 0;
    row.run(pageId, v.label, v.number, v.year, v.effective, v.expires, facts, v.nameKey, v.titleKey, v.fileKey, v.titleNorm);
    for (const target of v.supersedes) link.run(pageId, 'supersedes', target);
    for (const target of v.supersededBy) link.run(pageId, 'superseded_by', target);
  };
}
