/**
 * Version facts follow the files through re-indexing: a changed front matter replaces the page's
 * version row and links, a removed file takes its own with it, and the statuses of the versions left
 * follow (through the manifest, which reads them as search does).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, writeFiles } from '../ingest/testing/fixtures';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

async function statuses(sift: Sift, kb: string): Promise<Record<string, string | null>> {
  return Object.fromEntries((await call(sift, 'pages.manifest', { kb })).map((r) => [r.relPath, r.version]));
}

describe('version facts through re-indexing', () => {
  it('replaces a changed page’s facts, drops a removed page’s, and the statuses follow', async () => {
    const root = tempDir();
    writeFiles(root, {
      'policy_v1.md': '# Policy\n\nRooms up to 120 dollars.\n',
      'policy_v2.md': '# Policy\n\nRooms up to 150 dollars.\n',
    });
    const data = tempDir();
    const sift = openCore(data);
    open.push(sift);
    const kb = await makeKb(sift, 'Policies', [root]);
    await sift.ingest(kb);
    expect(await statuses(sift, kb)).toEqual({ 'policy_v1.md': 'superseded', 'policy_v2.md': 'current' });

    fs.rmSync(path.join(root, 'policy_v2.md'));
    await sift.ingest(kb);
    expect(await statuses(sift, kb)).toEqual({ 'policy_v1.md': 'current' });

    writeFiles(root, { 'policy_v1.md': '---\nsuperseded_by: policy-2025.md\nexpires: 2020-06\n---\n# Policy\n\nRooms up to 120 dollars.\n' });
    await sift.ingest(kb);
    expect(await statuses(sift, kb)).toEqual({ 'policy_v1.md': 'expired' });

    const db = new Database(path.join(data, 'kbs', `${kb}.sqlite`), { readonly: true });
    try {
      expect(db.prepare(`SELECT label, expires FROM page_versions`).raw().all()).toEqual([['v1', '2020-06-30']]);
      expect(db.prepare(`SELECT relation, target FROM page_version_links`).raw().all()).toEqual([['superseded_by', 'policy 2025']]);
    } finally {
      db.close();
    }
  });
});
