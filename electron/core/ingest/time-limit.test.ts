/**
 * A per-file time limit that really stops (issue #24 item 3). A parser busy in synchronous work cannot
 * be interrupted from its own thread, so the ingest pool's watchdog stops the worker and starts
 * another: here a real Markdown file too big to parse within a 1 s limit (about 3 s of markdown-it),
 * among small notes. It is listed as failed, "took longer than 1 s", the rest of the folder is indexed
 * and searchable, the file is not tried again while unchanged, and the index is intact.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp';
import type { Sift } from '../sift';
import { call, makeKb, openCore, writeFiles } from './testing/fixtures';

let sift: Sift | null = null;
afterEach(async () => {
  await sift?.close();
  sift = null;
});

/** About `mb` MB of real Markdown: sections of prose, lists, tables and code. */
function bigMarkdown(mb: number): string {
  const parts = ['# Handbook\n\n'];
  for (let n = 0, size = 0; size < mb * 1024 * 1024; n++) {
    const part = `## Section ${n}\n\nThe **quick** brown [fox ${n}](#x) jumps over the lazy dog.\n\n- item ${n}\n- other ${n}\n\n` +
      `| key | value |\n| --- | --- |\n| k${n} | v${n} |\n\n\`\`\`ts\nconst x${n} = ${n};\n\`\`\`\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

describe('the per-file time limit', () => {
  it('stops a worker stuck on one file, lists the file as failed and indexes the rest', async () => {
    const folder = tempDir();
    const notes = Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`notes/n${n}.md`, `# Note ${n}\n\nzebrafish item ${n}.`]));
    writeFiles(folder, { ...notes, 'handbook.md': bigMarkdown(24) });
    const dataDir = tempDir();
    sift = openCore(dataDir, { indexer: { fileTimeLimitMs: 1000, workers: 2 } });
    const kb = await makeKb(sift, 'stuck', [folder]);
    const t0 = performance.now();
    const status = await sift.ingest(kb);
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(status.state).toBe('done');
    expect(status.filesIndexed).toBe(30);
    expect(status.filesFailed).toBe(1);
    expect(status.problems).toEqual([
      expect.objectContaining({ relPath: 'handbook.md', status: 'failed', reason: expect.stringMatching(/^took longer than 1 s to read and was stopped/) }),
    ]);
    const found = await call(sift, 'search.query', { kb, query: 'zebrafish item 29', mode: 'keyword' });
    expect(found.passages[0]?.pagePath).toBe('wiki/notes/n29.md');
    // Unchanged, it is not read again (a second run takes no time and keeps the verdict).
    const t1 = performance.now();
    const again = await sift.ingest(kb);
    expect(performance.now() - t1).toBeLessThan(1_000);
    expect(again.filesFailed).toBe(1);
    // A worker replaced mid-run indexes what comes next.
    fs.writeFileSync(path.join(folder, 'notes', 'late.md'), '# Late\n\nquokka arrives late.');
    expect((await sift.ingest(kb)).filesIndexed).toBe(1);
    const late = await call(sift, 'search.query', { kb, query: 'quokka', mode: 'keyword' });
    expect(late.passages[0]?.pagePath).toBe('wiki/notes/late.md');
    await sift.close();
    sift = null;
    const Database = (await import('better-sqlite3')).default;
    const kbFile = fs.readdirSync(path.join(dataDir, 'kbs')).find((f) => f.endsWith('.sqlite'))!;
    const db = new Database(path.join(dataDir, 'kbs', kbFile), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  }, 60_000);
});
