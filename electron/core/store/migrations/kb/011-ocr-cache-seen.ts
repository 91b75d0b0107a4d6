import type { Migration } from '../../migrate';

/**
 * OCR cache bound: when each `ocr_cache` row was last needed (`seen_at`: written, or its file's bytes held by the
 * knowledge base at the end of a full run), so results no file needs any more can go after a while instead of
 * staying for ever (see ingest/ocr-reading.ts, pruneOcrCache). Rows written before count as seen when written.
 */
export const m011: Migration = {
  version: 11,
  name: 'ocr-cache-seen',
  up(db) {
    db.exec(`
      ALTER TABLE ocr_cache ADD COLUMN seen_at TEXT;
      UPDATE ocr_cache SET seen_at = created_at;
    `);
  },
};
