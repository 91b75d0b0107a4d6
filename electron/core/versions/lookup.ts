/**
 * The versions of the pages a search found, read from the knowledge base (kb migration 008): for each
 * page, the other versions of its document (same file name or title without the version part, or a
 * `supersedes` / `superseded_by` link either way), its status among them on the given day, and a
 * group number shared by the versions of one document. Pages that neither name a version nor share
 * a name with one that does have none.
 */
import type Database from 'better-sqlite3';
import type { Passage, PassageVersion } from '../../../shared/models';
import { cached, contentState } from '../store/statements';
import { versionStatus, type RankedVersion, type VersionMember } from './rank';
import { ALIKE_FROM, similarity, sketchOf } from '../text/sketch';

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
  declared: number;
  sketch: string | null;
}

/** A page's version row; `evidence` 2: front matter, 1: a marked file name, 0: a bare year or nothing. */
type Loaded = VersionMember & { label: string | null; nameKey: string; titleKey: string; evidence: number; sketch: string | null };

const ROWS = `SELECT v.page_id AS pageId, p.path, v.label, v.number, v.year, v.effective, v.expires, v.has_facts AS hasFacts,
                     v.name_key AS nameKey, v.title_key AS titleKey, v.file_key AS fileKey, v.title_norm AS titleNorm,
                     v.declared, v.sketch
              FROM page_versions v JOIN pages p ON p.id = v.page_id WHERE v.page_id IN (SELECT value FROM json_each(?))`;
const LINKS = `SELECT page_id, relation, target FROM page_version_links WHERE page_id IN (SELECT value FROM json_each(?))`;

/** `YYYY-MM-DD` of a moment, in UTC. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** True when the knowledge base has the version tables (a file made before kb migration 008 is migrated on open). */
function hasVersionTables(db: Database.Database): boolean {
  return cached(db, `SELECT 1 FROM sqlite_master WHERE name = 'page_versions'`).get() !== undefined;
}

/** The version of each of `pageIds` that has one, on `today` (`YYYY-MM-DD`); a fixed number of statements. */
export function pageVersions(db: Database.Database, pageIds: Iterable<number>, today: string): Map<number, PageVersion> {
  const out = new Map<number, PageVersion>();
  if (!hasVersionTables(db)) return out;
  // Only pages that may have a version are looked up: most searches find none and run no statement here.
  const versioned = mayHaveVersions(db);
  const ids = [...new Set(pageIds)].filter((id) => !versioned || versioned.has(id));
  if (ids.length === 0) return out;
  const loaded = loadRows(db, ids);
  const pages = ids.flatMap((id) => loaded.get(id) ?? []);
  const siblings = siblingIds(db, pages);
  const memberIds = [...new Set([...siblings.values()].flatMap((m) => [...m.keys()]))];
  loadRows(db, memberIds.filter((id) => !loaded.has(id)), loaded);
  const alike = alikeness(db, loaded);
  const groups = new UnionFind();
  const found: { page: Loaded; members: Loaded[] }[] = [];
  for (const page of pages) {
    const candidates = [...(siblings.get(page.pageId) ?? [])].flatMap(([id, linked]) => {
      const m = loaded.get(id);
      return m && (linked || (page.evidence === 2 && m.evidence === 2) || alike(page, m)) ? [m] : [];
    });
    const members = candidates;
    if (!page.hasFacts && !members.some((m) => m.hasFacts && m.pageId !== page.pageId)) continue;
    // A bare year in a file name needs another version to be one of (`rfc-1918` is RFC 1918).
    if (page.evidence === 0 && members.length === 0) continue;
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

/** The version rows of `ids` with their links, added to `into` (two statements). */
function loadRows(db: Database.Database, ids: number[], into = new Map<number, Loaded>()): Map<number, Loaded> {
  if (ids.length === 0) return into;
  const json = JSON.stringify(ids);
  const links = new Map<number, { relation: string; target: string }[]>();
  for (const [pageId, relation, target] of cached(db, LINKS).raw().all(json) as [number, string, string][]) {
    const list = links.get(pageId) ?? [];
    list.push({ relation, target });
    links.set(pageId, list);
  }
  for (const row of cached(db, ROWS).all(json) as Row[]) {
    const own = links.get(row.pageId) ?? [];
    const targets = (relation: string) => own.filter((l) => l.relation === relation).map((l) => l.target);
    const facts = { hasFacts: row.hasFacts === 1, evidence: row.declared };
    into.set(row.pageId, { ...row, ...facts, supersedes: targets('supersedes'), supersededBy: targets('superseded_by') });
  }
  return into;
}

/**
 * Every page that may have a version: pages that name one, pages sharing a key with those, pages a link
 * names. Other pages have none, so a listing of the whole knowledge base looks up only these.
 */
export function versionedPageIds(db: Database.Database): number[] {
  if (!hasVersionTables(db)) return [];
  return cached(
    db,
    `SELECT page_id FROM page_versions WHERE has_facts = 1
         OR (name_key != '' AND name_key IN (SELECT name_key FROM page_versions WHERE has_facts = 1))
         OR (title_key != '' AND title_key IN (SELECT title_key FROM page_versions WHERE has_facts = 1))
         OR file_key IN (SELECT target FROM page_version_links) OR title_norm IN (SELECT target FROM page_version_links)`,
  )
    .pluck()
    .all() as number[];
}

const mayHave = new WeakMap<Database.Database, { state: string; ids: Set<number> | null }>();

/**
 * The pages that may have a version (versionedPageIds), or null while they are not known: every page
 * pageVersions can give a version is among them (one with facts, one sharing a name or title key with a
 * page with facts, one a link names; a page without facts has no links), so the others need no lookup.
 * They are read by the second search that finds the knowledge base unchanged (41 ms at 77k pages, 4 ms at
 * 8k), and kept until it changes: searches during an ingest look every page up instead.
 */
function mayHaveVersions(db: Database.Database): Set<number> | null {
  const state = contentState(db);
  const known = mayHave.get(db);
  if (known?.state !== state) {
    mayHave.set(db, { state, ids: null });
    return null;
  }
  return (known.ids ??= new Set(versionedPageIds(db)));
}

/**
 * Whether two pages that share a name or title key say much the same (their sketches, versions/sketch.ts):
 * a page named like a version of another is one only then, unless both front matters speak of versions.
 * A page without a stored sketch (one that names no version) is sketched from its text when asked, all
 * such pages in one statement.
 */
function alikeness(db: Database.Database, loaded: Map<number, Loaded>): (a: Loaded, b: Loaded) => boolean {
  let filled = false;
  const fill = () => {
    filled = true;
    const missing = [...loaded.values()].filter((p) => p.sketch === null).map((p) => p.pageId);
    if (missing.length === 0) return;
    const sql = `SELECT id, text FROM pages WHERE id IN (SELECT value FROM json_each(?))`;
    for (const [id, text] of cached(db, sql).raw().all(JSON.stringify(missing)) as [number, string][]) loaded.get(id)!.sketch = sketchOf(text);
  };
  return (a, b) => {
    if ((a.sketch === null || b.sketch === null) && !filled) fill();
    return similarity(a.sketch ?? '', b.sketch ?? '') >= ALIKE_FROM;
  };
}

/**
 * For each page, the pages that may be other versions of its document, each marked linked (a
 * `supersedes` / `superseded_by` link either way) or not (the same name or title key, pages with facts
 * only), at most SIBLINGS_MAX per key; one statement for all the pages.
 */
function siblingIds(db: Database.Database, pages: Loaded[]): Map<number, Map<number, boolean>> {
  // Each wanted key: what to look it up by, and the pages that asked for it.
  type Ask = { kind: 'name' | 'title' | 'named' | 'naming'; key: string };
  const asks = new Map<string, { ask: Ask; pages: number[] }>();
  const want = (page: Loaded, kind: Ask['kind'], key: string) => {
    if (!key) return;
    const id = `${kind}\u0000${key}`;
    const entry = asks.get(id) ?? { ask: { kind, key }, pages: [] };
    entry.pages.push(page.pageId);
    asks.set(id, entry);
  };
  for (const page of pages) {
    want(page, 'name', page.nameKey);
    want(page, 'title', page.titleKey);
    for (const target of [...page.supersedes, ...page.supersededBy]) want(page, 'named', target);
    want(page, 'naming', page.fileKey);
    want(page, 'naming', page.titleNorm);
  }
  const out = new Map<number, Map<number, boolean>>(pages.map((p) => [p.pageId, new Map<number, boolean>()]));
  if (asks.size === 0) return out;
  const keys = (kind: Ask['kind']) => JSON.stringify([...asks.values()].filter((a) => a.ask.kind === kind).map((a) => a.ask.key));
  const rows = cached(db, SIBLINGS).raw().all({ names: keys('name'), titles: keys('title'), named: keys('named'), naming: keys('naming') });
  for (const [kind, key, pageId] of rows as [Ask['kind'], string, number][]) {
    const linked = kind === 'named' || kind === 'naming';
    for (const asker of asks.get(`${kind}\u0000${key}`)?.pages ?? []) {
      if (asker === pageId) continue;
      const members = out.get(asker)!;
      members.set(pageId, linked || (members.get(pageId) ?? false));
    }
  }
  return out;
}

/** Pages sharing a key with the asked ones, SIBLINGS_MAX per key: (kind, key, page id) rows. */
const SIBLINGS = `
  SELECT kind, key, page_id FROM (
    SELECT kind, key, page_id, row_number() OVER (PARTITION BY kind, key ORDER BY page_id) AS n FROM (
      SELECT 'name' AS kind, name_key AS key, page_id FROM page_versions
        WHERE name_key IN (SELECT value FROM json_each(@names)) AND has_facts = 1
      UNION
      SELECT 'title', title_key, page_id FROM page_versions
        WHERE title_key IN (SELECT value FROM json_each(@titles)) AND has_facts = 1
      UNION
      SELECT 'named', file_key, page_id FROM page_versions WHERE file_key IN (SELECT value FROM json_each(@named))
      UNION
      SELECT 'named', title_norm, page_id FROM page_versions WHERE title_norm IN (SELECT value FROM json_each(@named))
      UNION
      SELECT 'naming', target, page_id FROM page_version_links WHERE target IN (SELECT value FROM json_each(@naming))))
  WHERE n <= ${SIBLINGS_MAX}`;

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
