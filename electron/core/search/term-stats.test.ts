import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { TOKEN_CHARS } from '../text/tokenize';
import { totalOfVarints } from './term-stats';

describe('totalOfVarints', () => {
  it('reads the row length FTS5 records for a contentless row, one- and two-byte counts alike', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(tokens, title, path, content = '', contentless_delete = 1,
             tokenize = "unicode61 remove_diacritics 0 tokenchars '${TOKEN_CHARS}'")`);
    const insert = db.prepare('INSERT INTO t (rowid, tokens, title, path) VALUES (?, ?, ?, ?)');
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i % 97}`).join(' ');
    insert.run(1, words(200), 'two words', 'a/b.md');
    insert.run(2, words(3), '', '');
    insert.run(3, words(20_000), words(130), 'x');
    const size = db.prepare('SELECT sz FROM t_docsize WHERE id = ?').pluck();
    expect(totalOfVarints(size.get(1) as Buffer)).toBe(203);
    expect(totalOfVarints(size.get(2) as Buffer)).toBe(3);
    expect(totalOfVarints(size.get(3) as Buffer)).toBe(20_131);
    db.close();
  });

  it('decodes SQLite varints: seven bits a byte while the high bit is set, eight in a ninth byte', () => {
    expect(totalOfVarints(Uint8Array.of())).toBe(0);
    expect(totalOfVarints(Uint8Array.of(0x05, 0x7f))).toBe(5 + 127);
    expect(totalOfVarints(Uint8Array.of(0x81, 0x00))).toBe(128);
    expect(totalOfVarints(Uint8Array.of(0x81, 0x80, 0x00, 0x01))).toBe(16_384 + 1);
    expect(totalOfVarints(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x01))).toBe(2 ** 8 + 1);
  });
});
