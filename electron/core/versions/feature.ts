/**
 * Versions as a feature of ingest and search: every page written gets its version row and links
 * (versions/facts.ts reads them from the front matter and file name), and every search puts, among
 * the versions of one document it found, the one the query names (else the current one) first and
 * labels each passage with its page's version.
 */
import type Database from 'better-sqlite3';
import type { PageFeature } from '../ingest/page-features';
import type { RankingFeature } from '../search/ranking-features';
import { cached } from '../store/statements';
import { hasVersionFacts, pageVersionRecord, type PageVersionRecord } from './facts';
import { dayOf, pageVersions, versionedPageIds, withVersion } from './lookup';
import { preferVersions, versionMentions } from './rank';

/** The version row of a page and its `supersedes` / `superseded_by` links (kb migration 008's tables). */
function writeVersion(db: Database.Database, pageId: number, v: PageVersionRecord): void {
  const row = cached(db, `INSERT INTO page_versions (page_id, label, number, year, effective, expires, has_facts,
                                                    name_key, title_key, file_key, title_norm)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const facts = hasVersionFacts(v) ? 1 : 0;
  row.run(pageId, v.label, v.number, v.year, v.effective, v.expires, facts, v.nameKey, v.titleKey, v.fileKey, v.titleNorm);
  const link = cached(db, `INSERT INTO page_version_links (page_id, relation, target) VALUES (?, ?, ?)`);
  for (const target of v.supersedes) link.run(pageId, 'supersedes', target);
  for (const target of v.supersededBy) link.run(pageId, 'superseded_by', target);
}

/** Version facts and grouping keys of every page, from its metadata, file name and title. */
export const versionPages: PageFeature = {
  name: 'versions',
  format: 1,
  write(db, pageId, page) {
    writeVersion(db, pageId, pageVersionRecord(page.metadata, page.relPath, page.title));
  },
  clear(db) {
    db.exec(`DELETE FROM page_version_links; DELETE FROM page_versions;`);
  },
  // The page's status among the versions of its document; none when neither it nor any other page says.
  describe(db) {
    const versions = pageVersions(db, versionedPageIds(db), dayOf(new Date()));
    return new Map([...versions].map(([pageId, v]) => [pageId, { version: v.status, versionLabel: v.label }]));
  },
};

/** Version-aware ranking: the preferred version of a document first, every passage labelled with its page's. */
export const versionRanking: RankingFeature = {
  forPages(db, pageIds) {
    const versions = pageVersions(db, pageIds, dayOf(new Date()));
    return {
      order: (candidates, query) => preferVersions(candidates, (c) => versions.get(c.page.id), versionMentions(query)),
      label: (passage, pageId) => withVersion(passage, versions.get(pageId)),
    };
  },
};
