import type { Migration } from '../../migrate';

/** Who this file belongs to: the knowledge base's id and facts recorded about its index. */
export const m001: Migration = {
  version: 1,
  name: 'knowledge-base metadata',
  up(db) {
    db.exec(`
      CREATE TABLE kb_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `);
  },
};
