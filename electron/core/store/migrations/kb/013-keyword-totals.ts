import type { Migration } from '../../migrate';
import { recountKeywordTotals } from '../../keyword-totals';

/**
 * The keyword indexes' row counts and token totals counted again from their rows' sizes: FTS5 never took
 * deleted rows out of them (see store/keyword-totals.ts), so a knowledge base whose files were indexed
 * again counted their old rows too, and bm25 scored with the wrong figures. From here on every delete
 * is taken off.
 */
export const m013: Migration = {
  version: 13,
  name: 'keyword index totals recounted',
  up(db) {
    recountKeywordTotals(db);
  },
};
