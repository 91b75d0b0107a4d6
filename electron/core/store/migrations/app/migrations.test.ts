import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/temp';
import { migrate } from '../../migrate';
import { appMigrations } from '.';

function tables(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

describe('app database migrations', () => {
  it('001 creates knowledge bases, folders, settings, conversations and messages with cascading deletes', () => {
    const db = new Database(path.join(tempDir(), 'app.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(db, appMigrations, 'app', 1);
    expect(tables(db)).toEqual(['conversations', 'folders', 'knowledge_bases', 'messages', 'settings']);
    db.prepare("INSERT INTO knowledge_bases VALUES ('k1', 'Notes', 't', 't')").run();
    db.prepare("INSERT INTO folders (kb_id, path, added_at) VALUES ('k1', '/a', 't')").run();
    db.prepare("INSERT INTO conversations VALUES ('c1', 'k1', 'Hi', 't', 't')").run();
    db.prepare("INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ('m1', 'c1', 'user', 'q', 't')").run();
    expect(() => db.prepare("INSERT INTO knowledge_bases VALUES ('k2', 'Notes', 't', 't')").run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ('m2', 'c1', 'robot', 'q', 't')").run()).toThrow(/CHECK/);
    db.prepare("DELETE FROM knowledge_bases WHERE id = 'k1'").run();
    for (const t of ['folders', 'conversations', 'messages']) expect(db.prepare(`SELECT count(*) FROM ${t}`).pluck().get()).toBe(0);
    db.close();
  });
});

describe('app migration 002', () => {
  it('prefixes every folder after the first of a knowledge base with its name', () => {
    const db = new Database(path.join(tempDir(), 'app.sqlite'));
    migrate(db, appMigrations, 'app', 1);
    db.prepare("INSERT INTO knowledge_bases VALUES ('k1', 'A', 't', 't'), ('k2', 'B', 't', 't')").run();
    const add = db.prepare('INSERT INTO folders (kb_id, path, added_at) VALUES (?, ?, ?)');
    add.run('k1', '/home/u/notes', '2026-01-01');
    add.run('k1', '/home/u/papers', '2026-01-02');
    add.run('k2', '/home/u/code', '2026-01-01');
    migrate(db, appMigrations, 'app', 2);
    expect(db.prepare('SELECT kb_id, path, page_prefix FROM folders ORDER BY kb_id, path').all()).toEqual([
      { kb_id: 'k1', path: '/home/u/notes', page_prefix: '' },
      { kb_id: 'k1', path: '/home/u/papers', page_prefix: 'papers' },
      { kb_id: 'k2', path: '/home/u/code', page_prefix: '' },
    ]);
    db.close();
  });
});

describe('app migration 003', () => {
  it('adds follow_external_links to folders, off for existing folders and new ones', () => {
    const db = new Database(path.join(tempDir(), 'app.sqlite'));
    migrate(db, appMigrations, 'app', 2);
    db.prepare("INSERT INTO knowledge_bases VALUES ('k1', 'A', 't', 't')").run();
    db.prepare("INSERT INTO folders (kb_id, path, added_at) VALUES ('k1', '/home/u/notes', 't')").run();
    migrate(db, appMigrations, 'app', 3);
    db.prepare("INSERT INTO folders (kb_id, path, added_at, page_prefix) VALUES ('k1', '/home/u/more', 't', 'more')").run();
    db.prepare("INSERT INTO folders (kb_id, path, added_at, page_prefix, follow_external_links) VALUES ('k1', '/x', 't', 'x', 1)").run();
    expect(db.prepare('SELECT path, follow_external_links AS f FROM folders ORDER BY path').all()).toEqual([
      { path: '/home/u/more', f: 0 },
      { path: '/home/u/notes', f: 0 },
      { path: '/x', f: 1 },
    ]);
    db.close();
  });
});

describe('app migration 004', () => {
  it('adds the digests setting to knowledge bases, off for existing ones and new ones', () => {
    const db = new Database(path.join(tempDir(), 'app.sqlite'));
    migrate(db, appMigrations, 'app', 3);
    db.prepare("INSERT INTO knowledge_bases VALUES ('k1', 'A', 't', 't')").run();
    migrate(db, appMigrations, 'app', 4);
    db.prepare("INSERT INTO knowledge_bases (id, name, created_at, updated_at) VALUES ('k2', 'B', 't', 't')").run();
    db.prepare("INSERT INTO knowledge_bases (id, name, created_at, updated_at, digests) VALUES ('k3', 'C', 't', 't', 1)").run();
    expect(db.prepare('SELECT id, digests FROM knowledge_bases ORDER BY id').all()).toEqual([
      { id: 'k1', digests: 0 },
      { id: 'k2', digests: 0 },
      { id: 'k3', digests: 1 },
    ]);
    db.close();
  });
});
