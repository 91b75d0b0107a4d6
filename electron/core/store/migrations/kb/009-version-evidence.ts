import type { Migration } from '../../migrate';

/**
 * What makes two pages versions of one document (issue #25): what backs a page's version (`declared`: 2 its
 * front matter, 1 a file name that marks a version such as `_v2`, 0 a bare year or nothing), and a sketch of its text (`sketch`: bottom-k shingle hashes, versions/sketch.ts), so
 * pages that only share a name stem (`rfc-1918`, `rfc-2068`) are versions only when their content is alike.
 * The versions page feature fills both when it writes a page, and again for stored pages (its format 2).
 */
export const m009: Migration = {
  version: 9,
  name: 'version evidence',
  up(db) {
    db.exec(`
      ALTER TABLE page_versions ADD COLUMN declared INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE page_versions ADD COLUMN sketch TEXT;
    `);
  },
};
