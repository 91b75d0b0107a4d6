import type { Migration } from '../../migrate';

/**
 * Glossary entries (issue #15): one row per entry of a glossary page, with the span of the page's
 * text it occupies (so it is cited like a passage), and one row per normalised key (term and
 * aliases) to look it up. Both go with their page (ON DELETE CASCADE). The tables are filled by the
 * glossary's page feature (glossary/feature.ts), for pages already stored too: when a knowledge base
 * is opened, a feature it has not been written to reads the stored pages again (no file is read).
 */
export const m007: Migration = {
  version: 7,
  name: 'glossary entries',
  up(db) {
    db.exec(`
      CREATE TABLE glossary_entries (
        id         INTEGER PRIMARY KEY,
        page_id    INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        term       TEXT NOT NULL,
        aliases    TEXT NOT NULL DEFAULT '[]',
        definition TEXT NOT NULL,
        start      INTEGER NOT NULL,
        end        INTEGER NOT NULL
      );
      CREATE INDEX glossary_entries_by_page ON glossary_entries(page_id);
      CREATE TABLE glossary_keys (
        key      TEXT NOT NULL,
        entry_id INTEGER NOT NULL REFERENCES glossary_entries(id) ON DELETE CASCADE,
        PRIMARY KEY (key, entry_id)
      ) WITHOUT ROWID;
      CREATE INDEX glossary_keys_by_entry ON glossary_keys(entry_id);
    `);
  },
};
