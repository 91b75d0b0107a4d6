/** Meta pages of a real knowledge base: root README/overview/purpose/index files, best first. */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makeKb, openCore, writeFiles } from '../ingest/testing/fixtures';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { kbMetaPassages } from './meta-pages';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

describe('kbMetaPassages', () => {
  it('quotes the root purpose, overview, index and README files, in that order, and nothing nested', async () => {
    const root = tempDir();
    const long = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} of the overview explains one more part of the notes.`).join('\n\n');
    writeFiles(root, {
      'README.md': '# Ops notes\n\nRunbooks for the gateway and the payment service.\n',
      'overview.md': `# Overview\n\n${long}\n`,
      'purpose.txt': 'Why this folder exists: to keep every incident review in one place.\n',
      'nested/README.md': '# Nested\n\nNot about the whole knowledge base.\n',
      'retry.md': '# Retry policy\n\nThree retries after E_CONN_RESET.\n',
      'readme-notes.md': '# Not a meta page\n\nA file whose name only starts like one.\n',
    });
    const data = tempDir();
    const sift = openCore(data);
    open.push(sift);
    const kb = await makeKb(sift, 'Ops', [root]);
    await sift.ingest(kb);
    const db = new Database(path.join(data, 'kbs', `${kb}.sqlite`), { readonly: true });
    try {
      const passages = kbMetaPassages(db);
      expect(passages.map((p) => p.pagePath)).toEqual(['wiki/purpose.txt', 'wiki/overview.md', 'wiki/README.md']);
      for (const p of passages) expect(p.hitReason).toBe('kb_meta');
      const overview = passages[1]!;
      expect(overview.start).toBe(0);
      expect(overview.text.length).toBeGreaterThanOrEqual(1500);
      expect(overview.text.length).toBeLessThan(long.length);
      expect(kbMetaPassages(db, 1).map((p) => p.pagePath)).toEqual(['wiki/purpose.txt']);
    } finally {
      db.close();
    }
  });
});
