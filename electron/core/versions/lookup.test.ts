/**
 * Version-aware search end to end (issue #15 item 4): two versions of one policy in Chinese and in
 * English, indexed by the real pipeline and searched through the core with the test model. A plain
 * question gets the current version first, one naming the old version's year or number gets that one
 * first, and neither version is ever dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestRow, Passage, SearchResult } from '../../../shared/models';
import { VERSION_DOCS } from '../search/testing/version-docs';
import { makeKb, openKbFile, search, startCore, valueOf, type TestCore } from '../search/testing/test-kb';
import { countStatements, statementsRun } from '../store/statements';
import { pageVersions } from './lookup';

let core: TestCore;
let kb: string;
beforeAll(async () => {
  core = await startCore('test');
  kb = (await makeKb(core, 'versions', { policies: VERSION_DOCS })).id;
}, 60_000);
afterAll(async () => core?.close());

async function passages(query: string): Promise<Passage[]> {
  return valueOf<SearchResult>(await search(core, { kb, query, topK: 6 })).passages;
}

const pages = (ps: Passage[]) => [...new Set(ps.map((p) => p.pagePath))];
const ZH_2023 = 'wiki/差旅报销政策（2023版）.md';
const ZH_2024 = 'wiki/差旅报销政策（2024版）.md';
const EN_V1 = 'wiki/travel-policy-v1.md';
const EN_V2 = 'wiki/travel-policy-v2.md';

describe('version-aware search', () => {
  it('ranks the current Chinese version first for a plain question, above the better-matching old one', async () => {
    const found = await passages('出差住宿费每晚最高报销多少');
    const order = pages(found).filter((p) => p.startsWith('wiki/差旅'));
    expect(order).toEqual([ZH_2024, ZH_2023]);
    const [current, old] = order.map((path) => found.find((p) => p.pagePath === path)!);
    // The keyword stage liked the old version better: the order is the versions' doing.
    expect(old!.keywordRank!).toBeLessThan(current!.keywordRank!);
    expect(current!.version).toEqual({ status: 'current', label: '(2024版)', effective: null, expires: null, supersededBy: null });
    expect(old!.version).toEqual({ status: 'superseded', label: '(2023版)', effective: null, expires: null, supersededBy: ZH_2024 });
  });

  it('ranks the old Chinese version first when the question names its year', async () => {
    expect(pages(await passages('2023 年的住宿报销标准')).filter((p) => p.startsWith('wiki/差旅'))).toEqual([ZH_2023, ZH_2024]);
  });

  it('ranks the English v2 first for a plain question, and v1 for one naming v1 or 2023', async () => {
    const plain = await passages('How much is a hotel room reimbursed per night?');
    expect(pages(plain).filter((p) => p.startsWith('wiki/travel'))).toEqual([EN_V2, EN_V1]);
    expect(plain.find((p) => p.pagePath === EN_V1)!.version).toEqual({
      status: 'expired', label: 'v1', effective: '2023-01-01', expires: '2023-12-31', supersededBy: EN_V2,
    });
    for (const q of ['hotel rooms under travel policy v1', 'the 2023 hotel rules']) {
      expect(pages(await passages(q)).filter((p) => p.startsWith('wiki/travel')), q).toEqual([EN_V1, EN_V2]);
    }
  });

  it('gives a page that names no version, with no versions beside it, no version at all', async () => {
    const [retry] = await passages('retries a failed request');
    expect(retry!.pagePath).toBe('wiki/retry.md');
    expect(retry!.version).toBeUndefined();
  });

  it('works out statuses for the day asked: before 2024 nothing had replaced the 2023 versions', () => {
    const db = openKbFile(core, kb);
    try {
      const ids = db.prepare(`SELECT id, path FROM pages`).all() as { id: number; path: string }[];
      const status = (day: string) => {
        const versions = pageVersions(db, ids.map((r) => r.id), day);
        return Object.fromEntries(ids.filter((r) => versions.has(r.id)).map((r) => [r.path, versions.get(r.id)!.status]));
      };
      expect(status('2023-06-01')).toEqual({ [ZH_2023]: 'superseded', [ZH_2024]: 'current', [EN_V1]: 'current', [EN_V2]: 'current' });
      expect(status('2026-12-01')).toEqual({ [ZH_2023]: 'superseded', [ZH_2024]: 'current', [EN_V1]: 'expired', [EN_V2]: 'current' });
    } finally {
      db.close();
    }
  });

  // Last: it changes the knowledge base (and puts it back).
  it('looks up only the pages that may have a version once the knowledge base is unchanged, and all again after a change', () => {
    const db = openKbFile(core, kb);
    countStatements(db);
    try {
      const ids = db.prepare(`SELECT id FROM pages`).pluck().all() as number[];
      const retry = db.prepare(`SELECT id FROM pages WHERE path = 'wiki/retry.md'`).pluck().get() as number;
      const day = '2026-12-01';
      const first = pageVersions(db, ids, day); // every page looked up: the pages that may have one are not known yet
      const second = pageVersions(db, ids, day); // unchanged: they are read now
      expect([...second]).toEqual([...first]);
      expect(first.size).toBe(4);
      const before = statementsRun(db);
      expect(pageVersions(db, [retry], day).size).toBe(0);
      expect(statementsRun(db) - before).toBe(2); // the version tables' check and the knowledge base's state, no lookup
      // The retry page declares a version now: the very next lookup sees it.
      db.prepare(`UPDATE page_versions SET has_facts = 1, declared = 2, label = 'v9' WHERE page_id = ?`).run(retry);
      try {
        expect(pageVersions(db, [retry], day).get(retry)?.label).toBe('v9');
        expect(pageVersions(db, [retry], day).get(retry)?.label).toBe('v9');
      } finally {
        db.prepare(`UPDATE page_versions SET has_facts = 0, declared = 0, label = NULL WHERE page_id = ?`).run(retry);
      }
    } finally {
      db.close();
    }
  });
});
