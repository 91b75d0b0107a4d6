import type { Migration } from '../../migrate';

/**
 * The version facts of every page (issue #15 item 4): the version named by its front matter or file
 * name, the days it is in force, the documents it supersedes or is superseded by (`page_version_links`,
 * looked up by the key a link names), and the keys that group the versions of one document. The
 * versions page feature (versions/feature.ts) writes a row per page, for pages already stored too (from
 * their metadata, file name and title, when the knowledge base is opened); statuses (current,
 * superseded, expired) are worked out when read, because they depend on the day and on the other versions.
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
  },
};
