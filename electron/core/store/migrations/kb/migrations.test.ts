import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/temp';
import { migrate } from '../../migrate';
import { kbMigrations } from '.';

describe('knowledge-base file migrations', () => {
  it('001 creates the metadata table', () => {
    const db = new Database(path.join(tempDir(), 'kb.sqlite'));
    migrate(db, kbMigrations, 'kb', 1);
    db.prepare("INSERT INTO kb_meta VALUES ('kb_id', 'k1')").run();
    expect(db.prepare("SELECT value FROM kb_meta WHERE key = 'kb_id'").pluck().get()).toBe('k1');
    expect(() => db.prepare("INSERT INTO kb_meta VALUES ('kb_id', 'k2')").run()).toThrow(/UNIQUE/);
    db.close();
  });
});
