import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { tempDir } from '../testing/temp';
import { migrate, schemaVersion, type Migration } from './migrate';
import { openDatabase, PAGE_CACHE_KIB } from './open';

const steps: Migration[] = [
  { version: 1, name: 'a', up: (db) => db.exec('CREATE TABLE a (x INTEGER)') },
  { version: 2, name: 'b', up: (db) => db.exec('CREATE TABLE b (y INTEGER)') },
];

describe('migrate', () => {
  it('runs pending steps in order and records the version in user_version', () => {
    const db = new Database(path.join(tempDir(), 'm.sqlite'));
    expect(migrate(db, steps.slice(0, 1), 'test db')).toBe(1);
    db.prepare('INSERT INTO a VALUES (7)').run();
    expect(migrate(db, steps, 'test db')).toBe(2);
    expect(db.prepare('SELECT x FROM a').pluck().get()).toBe(7);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").pluck().get()).toBe('b');
    db.close();
  });

  it('rolls a failing step back whole, leaving the previous version', () => {
    const db = new Database(path.join(tempDir(), 'm.sqlite'));
    const broken: Migration[] = [
      steps[0]!,
      { version: 2, name: 'broken', up: (d) => (d.exec('CREATE TABLE half (z)'), d.exec('NOT SQL')) },
    ];
    expect(() => migrate(db, broken, 'test db')).toThrow();
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    db.close();
  });

  it('refuses a database written by a newer version, without touching it', () => {
    const file = path.join(tempDir(), 'm.sqlite');
    const db = new Database(file);
    db.pragma('user_version = 9');
    try {
      migrate(db, steps, 'the test database');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(SiftError);
      expect((err as SiftError).code).toBe('database_newer');
      expect((err as SiftError).message).toMatch(/the test database was written by a newer version of Sift \(schema 9; this version knows up to 2\)/);
    }
    expect(schemaVersion(db)).toBe(9);
    db.close();
  });

  it('rejects a migration list with a gap', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [steps[1]!], 'x')).toThrow(/out of order/);
  });

  it('opens files in WAL mode with foreign keys on', () => {
    const db = openDatabase(path.join(tempDir(), 'o.sqlite'), steps, 'test db');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('gives every connection, read-only ones too, a page cache of PAGE_CACHE_KIB', () => {
    const file = path.join(tempDir(), 'c.sqlite');
    const db = openDatabase(file, steps, 'test db');
    const reader = openDatabase(file, steps, 'test db', { readonly: true });
    for (const conn of [db, reader]) expect(conn.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    const plain = new Database(file, { readonly: true });
    expect(plain.pragma('cache_size', { simple: true })).not.toBe(-PAGE_CACHE_KIB); // the setting is ours
    plain.close();
    reader.close();
    db.close();
  });
});
