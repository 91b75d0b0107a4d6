/**
 * A knowledge base's glossary in its SQLite file (kb migration 007): entries are written with
 * their page, in the page's transaction, and read back as passages of that page — each entry's
 * exact span, hit reason `glossary` — so a definition is quoted and cited like any passage.
 */
import type Database from 'better-sqlite3';
import type { GlossaryEntry, Passage } from '../../../shared/models';
import { buildPassage, loadPages } from '../search/passages';
import { keysOf, type GlossaryDraft } from './parse';
import { keysIn, normalizeKey } from './terms';

/** Entries injected into a turn for the terms of its question, at most. Default 5. */
export const MENTIONED_MAX = 5;

/** Write a page's entries (inside the caller's transaction; the page's old entries already deleted). */
export function writeGlossary(db: Database.Database, pageId: number, entries: GlossaryDraft[]): void {
  if (entries.length === 0) return;
  const insertEntry = db.prepare(
    `INSERT INTO glossary_entries (page_id, term, aliases, definition, start, end) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insertKey = db.prepare(`INSERT OR IGNORE INTO glossary_keys (key, entry_id) VALUES (?, ?)`);
  for (const e of entries) {
    const { id } = insertEntry.get(pageId, e.term, JSON.stringify(e.aliases), e.definition, e.start, e.end) as { id: number };
    for (const key of keysOf(e)) insertKey.run(key, id);
  }
}

interface EntryRow {
  id: number;
  pageId: number;
  term: string;
  aliases: string;
  definition: string;
  start: number;
  end: number;
}

const ENTRY_COLUMNS = `id, page_id AS pageId, term, aliases, definition, start, end`;

/** Rows → entries with their passages, in the order given (rows whose page is gone are dropped). */
function toEntries(db: Database.Database, rows: EntryRow[]): GlossaryEntry[] {
  const pages = loadPages(db, rows.map((r) => r.pageId));
  return rows.flatMap((r) => {
    const page = pages.get(r.pageId);
    if (!page) return [];
    const passage = buildPassage(page, r.start, r.end, [], 'glossary');
    return [{ term: r.term, aliases: JSON.parse(r.aliases) as string[], definition: r.definition, passage }];
  });
}

/** Number of entries in the knowledge base's glossary. */
export function glossarySize(db: Database.Database): number {
  return db.prepare(`SELECT count(*) FROM glossary_entries`).pluck().get() as number;
}

/** Every entry, by term (then page and position). */
export function listGlossary(db: Database.Database): GlossaryEntry[] {
  const rows = db.prepare(`SELECT ${ENTRY_COLUMNS} FROM glossary_entries`).all() as EntryRow[];
  rows.sort((a, b) => normalizeKey(a.term).localeCompare(normalizeKey(b.term)) || a.pageId - b.pageId || a.start - b.start);
  return toEntries(db, rows);
}

function entriesByIds(db: Database.Database, ids: number[]): EntryRow[] {
  const get = db.prepare(`SELECT ${ENTRY_COLUMNS} FROM glossary_entries WHERE id = ?`);
  return ids.flatMap((id) => (get.get(id) as EntryRow | undefined) ?? []);
}

/** The entries whose term or alias is `term` (normalised), in page order. */
export function entriesOfTerm(db: Database.Database, term: string): GlossaryEntry[] {
  const ids = db.prepare(`SELECT entry_id FROM glossary_keys WHERE key = ? ORDER BY entry_id`).pluck().all(normalizeKey(term)) as number[];
  return toEntries(db, entriesByIds(db, ids));
}

/**
 * The entries whose terms or aliases occur in `text` (see terms.ts for how), in the order the
 * terms occur, each entry once, at most `limit`.
 */
export function mentionedEntries(db: Database.Database, text: string, limit = MENTIONED_MAX): GlossaryEntry[] {
  const keys = db.prepare(`SELECT key, entry_id FROM glossary_keys`).raw().all() as [string, number][];
  if (keys.length === 0) return [];
  const ids = [...new Set(keysIn(text, keys).map((m) => m.value))].slice(0, limit);
  return toEntries(db, entriesByIds(db, ids));
}

/** What a lookup found: entries of the term itself, or else of the glossary terms it mentions. */
export interface GlossaryLookup {
  match: 'exact' | 'mentioned' | 'none';
  entries: GlossaryEntry[];
}

/** Look a term up: its own entries, or else the entries of glossary terms inside it ("what is RRF?"). */
export function lookupGlossary(db: Database.Database, term: string): GlossaryLookup {
  const exact = entriesOfTerm(db, term);
  if (exact.length > 0) return { match: 'exact', entries: exact };
  const mentioned = mentionedEntries(db, term);
  return mentioned.length > 0 ? { match: 'mentioned', entries: mentioned } : { match: 'none', entries: [] };
}

/** The passages of entries (their exact spans), for a turn. */
export function passagesOf(entries: GlossaryEntry[]): Passage[] {
  return entries.map((e) => e.passage);
}
