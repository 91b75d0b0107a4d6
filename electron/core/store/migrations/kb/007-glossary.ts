import type { Migration } from '../../migrate';
import { isGlossaryPage, parseGlossary } from '../../../glossary/parse';
import { writeGlossary } from '../../../glossary/store';

/**
 * Glossary entries (issue #15): one row per entry of a glossary page, with the span of the page's
 * text it occupies (so it is cited like a passage), and one row per normalised key (term and
 * aliases) to look it up. Both go with their page (ON DELETE CASCADE; the page store deletes them
 * explicitly too). Pages already indexed are read here once, from the text the store has, so no
 * knowledge base has to be indexed again for its glossary.
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
    // Only glossary pages' text is read: a big knowledge base's text does not fit in memory at once.
    const pages = db
      .prepare(`SELECT p.id, p.kind, p.metadata, d.rel_path AS relPath FROM pages p JOIN documents d ON d.id = p.document_id`)
      .all() as { id: number; kind: string; metadata: string; relPath: string }[];
    const textOf = db.prepare(`SELECT text FROM pages WHERE id = ?`).pluck();
    for (const page of pages) {
      if (!isGlossaryPage(page.relPath, JSON.parse(page.metadata) as Record<string, unknown>)) continue;
      writeGlossary(db, page.id, parseGlossary(textOf.get(page.id) as string, page.kind));
    }
  },
};
