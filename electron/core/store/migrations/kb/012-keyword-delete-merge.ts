import type { Migration } from '../../migrate';

/**
 * FTS5 merges a segment again once a tenth of its rows are deleted (`deletemerge`, 10 by default). Writing
 * pages again deletes their old keyword rows, so re-indexing changed files, and all of them after a new
 * PAGE_FORMAT, merged the same segments over and over as deletions passed 10 %, 20 %, 30 %…: writing 1,000
 * pages a second time took 6.3 s of writes against 1.2 s the first time. At 50 % the segments are merged
 * once half their rows are gone: 1.9 s, with 5 % more index pages meanwhile and keyword search 1.49 →
 * 1.56 ms CPU on that index (one run; a fresh index 1.44). Stored in each table's own config.
 */
export const KEYWORD_DELETE_MERGE = 50;

export const m012: Migration = {
  version: 12,
  name: 'keyword index delete merge',
  up(db) {
    // Literals, not bound numbers: FTS5 accepts only integer values, and JS numbers bind as reals.
    db.exec(`
      INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('deletemerge', ${KEYWORD_DELETE_MERGE});
      INSERT INTO sections_fts (sections_fts, rank) VALUES ('deletemerge', ${KEYWORD_DELETE_MERGE});
    `);
  },
};
