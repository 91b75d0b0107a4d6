import type { Migration } from '../../migrate';

/**
 * Documents (one per file, with its fingerprint and status), pages (canonical text), sections
 * (heading-bounded parents), chunks (children with exact offsets), and the keyword index.
 *
 * The keyword index is FTS5 with external content: a view supplies each chunk's pre-tokenized
 * text plus its page's title and path tokens, so FTS stores only the index, not a second copy.
 * Tokens are made by Sift's own tokenizer; FTS5's unicode61 only splits them at spaces, which is
 * why the identifier characters are declared as `tokenchars`.
 *
 * Vector tables are not here: their dimension depends on the embedding model, so they are made
 * when a model is first recorded for the knowledge base (see ingest/vectors.ts).
 */
export const m002: Migration = {
  version: 2,
  name: 'documents, pages, sections, chunks and keyword index',
  up(db) {
    db.exec(`
      CREATE TABLE documents (
        id         INTEGER PRIMARY KEY,
        folder     TEXT NOT NULL,
        rel_path   TEXT NOT NULL,
        size       INTEGER NOT NULL,
        mtime_ms   INTEGER NOT NULL,
        sha256     TEXT,
        status     TEXT NOT NULL CHECK (status IN ('indexed', 'failed', 'skipped')),
        reason     TEXT,
        indexed_at TEXT NOT NULL,
        UNIQUE (folder, rel_path)
      );
      CREATE TABLE pages (
        id          INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
        path        TEXT NOT NULL UNIQUE,
        title       TEXT NOT NULL,
        kind        TEXT NOT NULL,
        text        TEXT NOT NULL,
        metadata    TEXT NOT NULL DEFAULT '{}',
        headings    TEXT NOT NULL DEFAULT '[]',
        pdf_pages   TEXT,
        language    TEXT,
        encoding    TEXT,
        title_tokens TEXT NOT NULL,
        path_tokens  TEXT NOT NULL
      );
      CREATE TABLE sections (
        id           INTEGER PRIMARY KEY,
        page_id      INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        idx          INTEGER NOT NULL,
        start        INTEGER NOT NULL,
        end          INTEGER NOT NULL,
        heading_path TEXT NOT NULL
      );
      CREATE INDEX sections_by_page ON sections(page_id, idx);
      CREATE TABLE chunks (
        id         INTEGER PRIMARY KEY,
        page_id    INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
        section_id INTEGER NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
        idx        INTEGER NOT NULL,
        start      INTEGER NOT NULL,
        end        INTEGER NOT NULL,
        hash       TEXT NOT NULL,
        tokens     TEXT NOT NULL,
        embedded   INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX chunks_by_page ON chunks(page_id, idx);
      CREATE INDEX chunks_to_embed ON chunks(page_id) WHERE embedded = 0;
      CREATE VIEW chunk_search AS
        SELECT c.id AS id, c.page_id AS page_id, c.tokens AS tokens, p.title_tokens AS title, p.path_tokens AS path
        FROM chunks c JOIN pages p ON p.id = c.page_id;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        tokens, title, path,
        content = 'chunk_search', content_rowid = 'id',
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_-./:@'"
      );
    `);
  },
};
