import type { Migration } from '../../migrate';

/**
 * OCR (issue #26): what OCR read of a page, kept with it (`pages.ocr`, JSON: model, confidence, and per page
 * the image size and each line's span, box and confidence; see page-model's OcrInfo), and a cache of OCR results
 * by the file's content hash, the model and the page number (`ocr_cache`), so unchanged bytes are never read
 * twice by one model: not when the page format changes, not when the file is renamed or copied, not after a run
 * was cancelled half-way through a scan. The cache outlives pages on purpose (a file moved out and back in).
 */
export const m010: Migration = {
  version: 10,
  name: 'ocr',
  up(db) {
    db.exec(`
      ALTER TABLE pages ADD COLUMN ocr TEXT;
      CREATE TABLE ocr_cache (
        sha256 TEXT NOT NULL,
        model TEXT NOT NULL,
        page INTEGER NOT NULL,
        result TEXT NOT NULL,
        seconds REAL NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (sha256, model, page)
      ) WITHOUT ROWID;
    `);
  },
};
