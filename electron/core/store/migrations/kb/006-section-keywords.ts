import type { Migration } from '../../migrate';
import { KEYWORD_WRITE_BUFFER } from './005-keyword-write-buffer';

/**
 * A second contentless keyword index, one row per section (its chunks' token strings joined, and
 * the page title's tokens), so the keyword stage can fuse a section's bm25 with its chunks' own
 * without reading and tokenizing the section's text at query time (which cost ~20 ms a query).
 * Rows are written at ingest from the tokens the chunks already have. Existing knowledge bases get
 * theirs when they are indexed again, which PAGE_FORMAT 3 (ingest/prepare.ts) forces: a contentless
 * index cannot give back the chunk tokens a backfill would need. Until then the table is empty and
 * the keyword stage ranks by chunks alone.
 */
export const m006: Migration = {
  version: 6,
  name: 'section keyword index',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE sections_fts USING fts5(
        tokens, title,
        content = '', contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./:@'"
      );
      INSERT INTO sections_fts (sections_fts, rank) VALUES ('hashsize', ${KEYWORD_WRITE_BUFFER});
    `);
  },
};
