/**
 * Page features: what a feature keeps for every page (glossary entries, version facts), made from the
 * page when ingest writes it and gone with it. The features sit above ingest and plug in here: the
 * facade hands its list to everything that writes pages (the ingest workers, digests), so ingest never
 * imports them. A feature's tables reference `pages(id) ON DELETE CASCADE`, so a page re-indexed or
 * removed takes its rows along; a feature whose `format` changed is made again from the stored pages
 * when a knowledge base is opened, without reading a file (see refreshPageFeatures).
 */
import type Database from 'better-sqlite3';
import type { ManifestRow } from '../../../shared/models';
import type { DocumentKind } from '../store/page-model';

/** What a feature may read of the page it is made from. */
export interface PageSource {
  /** The file's path inside its folder, e.g. `hr/travel_policy_v2.md`. */
  relPath: string;
  title: string;
  kind: DocumentKind;
  metadata: Record<string, unknown>;
  /** The canonical text, read from the store only when a feature asks for it. */
  text(): string;
}

/** One feature's part in writing pages. */
export interface PageFeature {
  /** Names the feature in the knowledge base's `kb_meta` (`feature_format:<name>`). */
  readonly name: string;
  /**
   * The version of what `write` keeps. Bump it when that changes: every knowledge base written with
   * another version is made again from its stored pages when next opened.
   */
  readonly format: number;
  /** Keep what the feature needs of page `pageId`, inside the page's transaction. */
  write(db: Database.Database, pageId: number, page: PageSource): void;
  /** Forget every row the feature keeps (before all pages are written to it again). */
  clear(db: Database.Database): void;
  /** What the feature adds to the manifest rows of the pages it knows, by page id. Default nothing. */
  describe?(db: Database.Database): Map<number, Partial<ManifestRow>>;
}

/** No features: what a page written without them (unit tests, benchmarks) gets. */
export const NO_PAGE_FEATURES: readonly PageFeature[] = [];

const formatKey = (f: PageFeature) => `feature_format:${f.name}`;

/**
 * Make again, from the stored pages, every feature whose recorded format is not its own (a knowledge
 * base made before the feature, or by another version of it), each in one transaction, then record
 * the format. Pages are read one at a time; a page's text only when the feature asks for it.
 * Returns the names of the features made again.
 */
export function refreshPageFeatures(db: Database.Database, features: readonly PageFeature[]): string[] {
  const recorded = db.prepare(`SELECT value FROM kb_meta WHERE key = ?`).pluck();
  const stale = features.filter((f) => recorded.get(formatKey(f)) !== String(f.format));
  if (stale.length === 0) return [];
  const pages = db.prepare(`SELECT p.id, p.title, p.kind, p.metadata, d.rel_path AS relPath
                            FROM pages p JOIN documents d ON d.id = p.document_id`);
  const textOf = db.prepare(`SELECT text FROM pages WHERE id = ?`).pluck();
  const record = db.prepare(`INSERT INTO kb_meta (key, value) VALUES (?, ?)
                             ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  type Row = { id: number; title: string; kind: DocumentKind; metadata: string; relPath: string };
  for (const feature of stale) {
    db.transaction(() => {
      feature.clear(db);
      // Collected first: a statement still stepping over `pages` must not share the connection with writes.
      for (const row of pages.all() as Row[]) {
        const metadata = JSON.parse(row.metadata) as Record<string, unknown>;
        const text = () => textOf.get(row.id) as string;
        feature.write(db, row.id, { relPath: row.relPath, title: row.title, kind: row.kind, metadata, text });
      }
      record.run(formatKey(feature), String(feature.format));
    })();
  }
  return stale.map((f) => f.name);
}
