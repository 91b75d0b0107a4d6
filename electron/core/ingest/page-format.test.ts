/**
 * A knowledge base indexed by an older page format (titles, chunks) is indexed again on the next
 * run even though no file changed; once it has been, runs skip unchanged files as before. Files that
 * failed are read again once when a parser has been fixed since (PARSER_FIXES), and only then.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../base/paths';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { PAGE_FORMAT, PARSER_FIXES } from './prepare';
import { buildPdf } from './parse/fixtures';
import { call, makeKb, openCore, writeFiles } from './testing/fixtures';

let sift: Sift | null = null;
afterEach(async () => {
  await sift?.close();
  sift = null;
});

async function titles(core: Sift, kb: string): Promise<Record<string, string>> {
  return Object.fromEntries((await call(core, 'pages.list', { kb })).map((p) => [p.path, p.title]));
}

describe('page format', () => {
  it('re-indexes unchanged files of a knowledge base made by an older format, then skips them again', async () => {
    const root = tempDir();
    writeFiles(root, {
      'zod/README.md': '<h1 align="center">Zod</h1>\n\n## Installation\n\nnpm i zod\n',
      'notes.md': '# 网关超时处理手册\n\n## 背景\n\n网关在三十秒内没有收到响应时返回 504。\n',
    });
    const dataDir = tempDir();
    sift = openCore(dataDir);
    const kb = await makeKb(sift, 'Readmes', [root]);
    expect((await sift.ingest(kb)).filesIndexed).toBe(2);

    // What an older Sift left behind: its titles, and no page format recorded.
    const db = new Database(dataPaths(dataDir).kbDb(kb));
    try {
      expect(db.prepare(`SELECT value FROM kb_meta WHERE key = 'page_format'`).pluck().get()).toBe(String(PAGE_FORMAT));
      db.prepare(`UPDATE pages SET title = 'Installation' WHERE path = 'wiki/zod/README.md'`).run();
      db.prepare(`DELETE FROM kb_meta WHERE key = 'page_format'`).run();
    } finally {
      db.close();
    }

    const upgraded = await sift.ingest(kb);
    expect(upgraded.filesIndexed).toBe(2);
    expect(await titles(sift, kb)).toEqual({ 'wiki/notes.md': '网关超时处理手册', 'wiki/zod/README.md': 'Zod' });
    const notes = await call(sift, 'pages.get', { kb, path: 'wiki/notes.md' });
    expect(notes.chunkSpans.map((c) => c.start)).toEqual([0]);

    expect((await sift.ingest(kb)).filesIndexed).toBe(0);
  });
  it('gives a knowledge base indexed before the section keyword index its section rows', async () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': '# Lighthouse\n\nThe keeper wrote.\n\n## Harbour\n\nThe master came.\n', 'b.md': 'cats\n' });
    const dataDir = tempDir();
    sift = openCore(dataDir);
    const kb = await makeKb(sift, 'Old', [root]);
    await sift.ingest(kb);
    const sectionRows = (db: Database.Database) => db.prepare(`SELECT count(*) FROM sections_fts`).pluck().get();
    // What a knowledge base of PAGE_FORMAT 2 looks like once migration 006 has run: an empty section index.
    const db = new Database(dataPaths(dataDir).kbDb(kb));
    try {
      expect(sectionRows(db)).toBe(3);
      db.prepare(`INSERT INTO sections_fts (sections_fts) VALUES ('delete-all')`).run();
      db.prepare(`UPDATE kb_meta SET value = '2' WHERE key = 'page_format'`).run();
      expect(sectionRows(db)).toBe(0);
    } finally {
      db.close();
    }
    expect((await sift.ingest(kb)).filesIndexed).toBe(2);
    const after = new Database(dataPaths(dataDir).kbDb(kb), { readonly: true });
    try {
      expect(sectionRows(after)).toBe(3);
    } finally {
      after.close();
    }
  });

  it('reads a file that failed before a parser fix again once, and a failed file otherwise not at all', async () => {
    const root = tempDir();
    const good = buildPdf([['Lighthouse keeper log.'], ['The lamp was lit at dusk.']]);
    const file = path.join(root, 'log.pdf');
    // The scan reads a file again when its size or time moved: the two versions share both, so only
    // the rule under test can make a run read the good bytes (as a fixed parser would the same bytes).
    const when = new Date('2026-01-02T03:04:05Z');
    const put = (bytes: Buffer) => {
      fs.writeFileSync(file, bytes);
      fs.utimesSync(file, when, when);
    };
    put(Buffer.alloc(good.length, 0x20));
    writeFiles(root, { 'notes.md': '# Notes\n\nThe keeper wrote.\n' });
    const dataDir = tempDir();
    sift = openCore(dataDir);
    const kb = await makeKb(sift, 'Log', [root]);
    const first = await sift.ingest(kb);
    expect([first.filesIndexed, first.filesFailed]).toEqual([1, 1]);
    const fixes = (db: Database.Database) => db.prepare(`SELECT value FROM kb_meta WHERE key = 'parser_fixes'`).pluck().get();
    const meta = (change?: (db: Database.Database) => void) => {
      const db = new Database(dataPaths(dataDir).kbDb(kb));
      try {
        change?.(db);
        return fixes(db);
      } finally {
        db.close();
      }
    };
    expect(meta()).toBe(String(PARSER_FIXES));

    put(good);
    const again = await sift.ingest(kb);
    expect([again.filesIndexed, again.filesFailed]).toEqual([0, 1]);
    expect((await titles(sift, kb))['wiki/log.pdf']).toBeUndefined();

    // What a Sift before the last parser fix left behind: its failures, and no fixes recorded.
    meta((db) => db.prepare(`DELETE FROM kb_meta WHERE key = 'parser_fixes'`).run());
    const fixed = await sift.ingest(kb);
    expect([fixed.filesIndexed, fixed.filesFailed]).toEqual([1, 0]);
    expect((await call(sift, 'pages.get', { kb, path: 'wiki/log.pdf' })).text).toBe('Lighthouse keeper log.\n\nThe lamp was lit at dusk.');
    expect(meta()).toBe(String(PARSER_FIXES));
    expect((await sift.ingest(kb)).filesIndexed).toBe(0);
  });
});
