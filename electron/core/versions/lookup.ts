/**
 * The versions of the pages a search found, read from the knowledge base (kb migration 008): for each
 * page, the other versions of its document (same file name or title without the version part, or a
 * `supersedes` / `superseded_by` link either way), its status among them on the given day, and a
 * group number shared by the versions of one document. Pages that neither name a version nor share
 * a name with one that does have none.
 */
import type Database from 'better-sqlite3';
import type { Passage, PassageVersion } from '../../../shared/models';
import { cached } from '../store/statements';
import { versionStatus, type RankedVersion, type VersionMember } from './rank';

/** A page's version as search uses it: what a Passage shows, plus what ranking needs. */
export type PageVersion = PassageVersion & RankedVersion;

/** Versions of one document looked at, at most, per key (a name shared by hundreds of pages is no document). */
const SIBLINGS_MAX = 50;

interface Row {
  pageId: number;
  path: string;
  label: string | null;
  number: string | null;
  year: number | null;
  effective: string | null;
  expires: string | null;
  hasFacts: number;
  nameKey: string;
  titleKey: string;
  fileKey: string;
  titleNorm: string;
}

type Loaded = VersionMember & { label: string | null; nameKey: string; titleKey: string };

const ROW = `SELECT v.page_id AS pageId, p.path, v.label, v.number, v.year, v.effective, v.expires, v.has_facts AS hasFacts,
                    v.name_key AS nameKey, v.title_key AS titleKey, v.file_key AS fileKey, v.title_norm AS titleNorm
             FROM page_versions v JOIN pages p ON p.id = v.page_id WHERE v.page_id = ?`;

/** `YYYY-MM-DD` of a moment, in UTC. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** True when the knowledge base has the version tables (a file made before kb migration 008 is migrated on open). */
function hasVersionTables(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'page_versions'`).get() !== undefined;
}

/** The version of each of `pageIds` that has one, on `today` (`YYYY-MM-DD`). */
export function pageVersions(db: Database.Database, pageIds: Iterable<number>, today: string): Map<number, PageVersion> {
  const out = new Map<number, PageVersion>();
  if (!hasVersionTables(db)) return out;
  const loaded = new Map<number, Loaded | null>();
  const load = (id: number): Loaded | null => {
    if (!loaded.has(id)) loaded.set(id, loadRow(db, id));
    return loaded.get(id)!;
  };
  const groups = new UnionFind();
  const found: { page: Loaded; members: Loaded[] }[] = [];
  for (const id of new Set(pageIds)) {
    const page = load(id);
    if (!page) continue;
    const members = siblingIds(db, page).flatMap((s) => load(s) ?? []);
    if (!page.hasFacts && !members.some((m) => m.hasFacts && m.pageId !== page.pageId)) continue;
    for (const m of members) groups.union(page.pageId, m.pageId);
    found.push({ page, members });
  }
  for (const { page, members } of found) {
    const { status, supersededBy } = versionStatus(page, members, today);
    out.set(page.pageId, {
      status, supersededBy, label: page.label, effective: page.effective, expires: page.expires,
      group: groups.find(page.pageId), number: page.number, year: page.year,
    });
  }
  return out;
}

function loadRow(db: Database.Database, id: number): Loaded | null {
  const row = cached(db, ROW).get(id) as Row | undefined;
  if (!row) return null;
  const linkRows = cached(db, `SELECT relation, target FROM page_version_links WHERE page_id = ?`).all(id);
  const links = linkRows as { relation: string; target: string }[];
  const targets = (relation: string) => links.filter((l) => l.relation === relation).map((l) => l.target);
  return { ...row, hasFacts: row.hasFacts === 1, supersedes: targets('supersedes'), supersededBy: targets('superseded_by') };
}

/**
 * Every page that may have a version: pages that name one, pages sharing a key with those, pages a link
 * names. Other pages have none, so a listing of the whole knowledge base looks up only these.
 */
export function versionedPageIds(db: Database.Database): number[] {
  if (!hasVersionTables(db)) return [];
  return db
    .prepare(
      `SELECT page_id FROM page_versions WHERE has_facts = 1
         OR (name_key != '' AND name_key IN (SELECT name_key FROM page_versions WHERE has_facts = 1))
         OR (title_key != '' AND title_key IN (SELECT title_key FROM page_versions WHERE has_facts = 1))
         OR file_key IN (SELECT target FROM page_version_links) OR title_norm IN (SELECT target FROM page_version_links)`,
    )
    .pluck()
    .all() as number[];
}

/** Pages that may be other versions of `page`'s document: same keys (pages with facts only), and links both ways. */
function siblingIds(db: Database.Database, page: Loaded): number[] {
  const ids = new Set<number>();
  const add = (list: unknown[]) => list.forEach((id) => ids.add(id as number));
  const byKey = (column: 'name_key' | 'title_key', key: string) => {
    const sql = `SELECT page_id FROM page_versions WHERE ${column} = ? AND has_facts = 1 LIMIT ${SIBLINGS_MAX}`;
    if (key) add(cached(db, sql).pluck().all(key));
  };
  byKey('name_key', page.nameKey);
  byKey('title_key', page.titleKey);
  const namedSql = `SELECT page_id FROM page_versions WHERE file_key = ? OR title_norm = ? LIMIT ${SIBLINGS_MAX}`;
  const named = cached(db, namedSql).pluck();
  for (const target of [...page.supersedes, ...page.supersededBy]) add(named.all(target, target));
  const naming = `SELECT DISTINCT page_id FROM page_version_links WHERE target IN (?, ?) LIMIT ${SIBLINGS_MAX}`;
  add(cached(db, naming).pluck().all(page.fileKey, page.titleNorm));
  ids.delete(page.pageId);
  return [...ids];
}

/** Groups of page ids; each group is named by its smallest id. */
class UnionFind {
  private readonly parent = new Map<number, number>();
  find(id: number): number {
    let root = id;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    return root;
  }
  union(a: number, b: number): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
}

/** The passage with its page's version, when the page has one. */
export function withVersion(p: Passage, v: PageVersion | undefined): Passage {
  if (!v) return p;
  const { status, label, effective, expires, supersededBy } = v;
  return { ...p, version: { status, label, effective, expires, supersededBy } };
}
