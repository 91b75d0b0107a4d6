import type { Migration } from '../../migrate';

/** Knowledge bases, their folders, settings, and conversations with their messages. */
export const m001: Migration = {
  version: 1,
  name: 'initial app schema',
  up(db) {
    db.exec(`
      CREATE TABLE knowledge_bases (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
      CREATE TABLE folders (
        kb_id         TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        path          TEXT NOT NULL,
        added_at      TEXT NOT NULL,
        exclude_globs TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (kb_id, path)
      );
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE conversations (
        id          TEXT PRIMARY KEY,
        kb_id       TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        title       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
      CREATE INDEX conversations_by_kb ON conversations(kb_id, updated_at);
      CREATE TABLE messages (
        id              TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content         TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        -- the turn's passages, citations, references, decision and timings, as JSON
        turn            TEXT
      );
      CREATE INDEX messages_by_conversation ON messages(conversation_id, created_at);
    `);
  },
};
