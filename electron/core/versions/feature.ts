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
import { FUNCTION_TERMS } from '../search/keyword';
import type { PageInfo } from '../search/passages';
import { tokenize } from '../text/tokenize';
import { preferVersions, versionMentions } from './rank';
import { sketchOf } from '../text/sketch';

/** The version row of a page and its `supersedes` / `superseded_by` links (kb migration 008's tables). */
function writeVersion(db: Database.Database, pageId: number, v: PageVersionRecord, sketch: string | null): void {
  const row = cached(db, `INSERT INTO page_versions (page_id, label, number, year, effective, expires, has_facts,
                                                    name_key, title_key, file_key, title_norm, declared, sketch)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const facts = hasVersionFacts(v) ? 1 : 0;
  const keys = [v.nameKey, v.titleKey, v.fileKey, v.titleNorm];
  row.run(pageId, v.label, v.number, v.year, v.effective, v.expires, facts, ...keys, evidenceOf(v), sketch);
  const link = cached(db, `INSERT INTO page_version_links (page_id, relation, target) VALUES (?, ?, ?)`);
  for (const target of v.supersedes) link.run(pageId, 'supersedes', target);
  for (const target of v.supersededBy) link.run(pageId, 'superseded_by', target);
}

/** What backs a page's version (`page_versions.declared`): 2 its front matter, 1 a marked file name, 0 neither. */
export function evidenceOf(v: PageVersionRecord): number {
  return v.declared ? 2 : v.marked ? 1 : 0;
}

/**
 * Version facts and grouping keys of every page, from its metadata, file name and title, and for a page
 * that has facts the sketch of its text. 2: `declared` and `sketch` (kb migration 009).
 */
export const versionPages: PageFeature = {
  name: 'versions',
  format: 2,
  write(db, pageId, page) {
    const record = pageVersionRecord(page.metadata, page.relPath, page.title);
    writeVersion(db, pageId, record, hasVersionFacts(record) ? sketchOf(page.text()) : null);
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

/**
 * How much of the query a candidate's text holds (the share of the query's distinct terms, English
 * function words aside, among its tokens), for the candidates that are versions of a document (only
 * those are compared; each is tokenized once).
 */
function queryCoverage<T extends { page: PageInfo; start: number; end: number }>(
  query: string,
  candidates: T[],
  versionOf: (c: T) => unknown,
): (c: T) => number {
  const words = [...new Set(tokenize(query))];
  const terms = words.filter((t) => !FUNCTION_TERMS.has(t));
  const wanted = terms.length > 0 ? terms : words;
  const memo = new Map<T, number>();
  return (c) => {
    if (wanted.length === 0 || !versionOf(c)) return 0;
    let share = memo.get(c);
    if (share === undefined) {
      const tokens = new Set(tokenize(c.page.text.slice(c.start, c.end)));
      share = wanted.filter((t) => tokens.has(t)).length / wanted.length;
      memo.set(c, share);
    }
    return share;
  };
}

/** Version-aware ranking: the preferred version of a document first, every passage labelled with its page's. */
export const versionRanking: RankingFeature = {
  forPages(db, pageIds) {
    const versions = pageVersions(db, pageIds, dayOf(new Date()));
    return {
      order: (candidates, query) => {
        const versionOf = (c: (typeof candidates)[number]) => versions.get(c.page.id);
        return preferVersions(candidates, versionOf, versionMentions(query), queryCoverage(query, candidates, versionOf));
      },
      label: (passage, pageId) => withVersion(passage, versions.get(pageId)),
    };
  },
};
