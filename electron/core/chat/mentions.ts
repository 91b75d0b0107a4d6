/**
 * Which pages mention a term, counted truly (issue #25 item 5): a catalogue answer ("which notes mention
 * pool_size?") lists only pages that hold the term whole, as written (case aside), and says how many there
 * are, not how many it shows.
 *
 * Kept apart from search ranking on purpose: this is a count, not a ranking. The keyword index narrows the
 * pages (a chunk holding the term holds all of its word parts and CJK bigrams, as typed or lower-cased),
 * SQLite's `instr` narrows them again, and the page text decides (the term with word boundaries at its
 * ends). Cost: one or two FTS statements and one page-text statement over the pages that hold all the parts.
 */
import type Database from 'better-sqlite3';
import type { Passage } from '../../../shared/models';
import { cached } from '../store/statements';
import { tokenize } from '../text/tokenize';
import { buildPassage, loadPages, type PageInfo } from '../search/passages';

/** The pages that mention a term. */
export interface Mentions {
  /** How many pages hold the term whole. */
  count: number;
  /** At most `limit` of them, one passage each, where the term occurs: the search's order first, then by
   *  how often the page says it. */
  passages: Passage[];
  /** The term's parts (`pool`, `size` of `pool_size`; the words of a Chinese phrase), and how many pages
   *  hold at least one of them: said when no page holds the whole. */
  parts: string[];
  partCount: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+/gu;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pattern of `term` held whole: case-insensitive, any run of white space for a space, and at an end
 * that is a letter, digit or `_` of a non-CJK word, no such character next to it (`pool_size` is not in
 * `my_pool_size_max`; `超时` is in `连接超时了`, Chinese has no spaces).
 */
export function wholeTermPattern(term: string): RegExp {
  const body = term.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  const first = term.trim()[0] ?? '';
  const last = term.trim().at(-1) ?? '';
  const before = WORD_CHAR.test(first) && !CJK.test(first) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = WORD_CHAR.test(last) && !CJK.test(last) ? '(?![\\p{L}\\p{N}_])' : '';
  return new RegExp(`${before}${body}${after}`, 'giu');
}

/** Index tokens every chunk holding `term` holds too: the unjoined tokens of its non-CJK words (an
 *  identifier's parts, a word's stem) and the overlapping bigrams of its CJK runs. */
function requiredTokens(term: string): string[] {
  const out = new Set<string>();
  const latin = term.replace(CJK_RUNS, ' ');
  for (const token of tokenize(latin)) if (!/[_\-./:@]/.test(token)) out.add(token);
  for (const run of term.matchAll(CJK_RUNS)) {
    const chars = [...run[0]];
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  }
  return [...out];
}

/** The parts of `term` a reader would name: its words split at connectors, and the segmenter's words of a CJK run. */
export function partsOf(term: string): string[] {
  const parts = new Set<string>();
  for (const piece of term.replace(CJK_RUNS, ' ').split(/[\s_\-./:@]+/)) if (piece.length > 1) parts.add(piece);
  for (const run of term.matchAll(CJK_RUNS)) {
    for (const seg of segmenter.segment(run[0])) if (seg.isWordLike !== false && seg.segment !== run[0]) parts.add(seg.segment);
  }
  parts.delete(term);
  return [...parts];
}

const quoted = (t: string): string => `"${t.replace(/"/g, '""')}"`;

/** Ids of the pages with a chunk holding all of `tokens` (`any`: one of them). */
function pagesWithTokens(db: Database.Database, tokens: string[], any = false): number[] {
  const sql = `SELECT DISTINCT c.page_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?`;
  const match = `{tokens} : (${tokens.map(quoted).join(any ? ' OR ' : ' AND ')})`;
  return cached(db, sql).pluck().all(match) as number[];
}

/** A piece of the term SQLite's ASCII-only `lower()` and `instr` can look for, or null when none is safe. */
function instrProbe(term: string): string | null {
  const longest = term.split(/\s+/).sort((a, b) => b.length - a.length)[0] ?? '';
  // lower() folds ASCII only: a non-ASCII letter with case (É) could be written the other way in the text.
  if (!longest || [...longest].some((ch) => ch.charCodeAt(0) > 127 && ch.toLowerCase() !== ch.toUpperCase())) return null;
  return longest.toLowerCase();
}

/** Where `term` occurs whole on each page among `ids`: first offset, end and count. */
function occurrences(db: Database.Database, ids: number[], term: string): Map<number, { at: number; end: number; times: number }> {
  const found = new Map<number, { at: number; end: number; times: number }>();
  if (ids.length === 0) return found;
  const probe = instrProbe(term);
  const sql = probe === null
    ? `SELECT id, text FROM pages WHERE id IN (SELECT value FROM json_each(?))`
    : `SELECT id, text FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND instr(lower(text), ?) > 0`;
  // Rows are read one at a time: a common term on a large knowledge base reads many pages, never all at once.
  const stmt = cached(db, sql);
  const rows = (probe === null ? stmt.iterate(JSON.stringify(ids)) : stmt.iterate(JSON.stringify(ids), probe)) as IterableIterator<{ id: number; text: string }>;
  const pattern = wholeTermPattern(term);
  for (const row of rows) {
    pattern.lastIndex = 0;
    let first: RegExpExecArray | null = null;
    let times = 0;
    for (let m = pattern.exec(row.text); m !== null; m = pattern.exec(row.text)) {
      first ??= m;
      times++;
      if (m[0].length === 0) pattern.lastIndex++;
    }
    if (first) found.set(row.id, { at: first.index, end: first.index + first[0].length, times });
  }
  return found;
}

/** The passage of `page` to cite for an occurrence at `[at, end)`: the indexed chunk that holds it. */
function chunkPassage(db: Database.Database, page: PageInfo, at: number, end: number): Passage {
  const sql = `SELECT start, end FROM chunks WHERE page_id = ? AND start <= ? ORDER BY (end >= ?) DESC, idx DESC LIMIT 1`;
  const chunk = cached(db, sql).get(page.id, at, end) as { start: number; end: number } | undefined;
  return buildPassage(page, chunk?.start ?? 0, chunk?.end ?? page.text.length, [], 'body');
}

/**
 * The pages of `db` that mention `term` whole, counted, and at most `limit` of them with a passage each:
 * first those `ranked` (the search's passages, best first) found, using the search's passage when it holds
 * the term, then the others by how often they say it. When none holds it whole, `partCount` says how many
 * hold one of its parts.
 */
export function pagesMentioning(db: Database.Database, term: string, ranked: Passage[], limit: number): Mentions {
  const whole = term.normalize('NFKC').trim();
  const parts = partsOf(whole);
  // A camelCase word is split by its case, which the text may write otherwise (`TypeScript`, `typescript`): the
  // pages holding either spelling's tokens.
  const spellings = [...new Set([requiredTokens(whole).join('\u0000'), requiredTokens(whole.toLowerCase()).join('\u0000')])].map((t) => t.split('\u0000').filter(Boolean));
  const candidates = spellings.some((t) => t.length === 0)
    ? (cached(db, `SELECT id FROM pages`).pluck().all() as number[])
    : [...new Set(spellings.flatMap((t) => pagesWithTokens(db, t)))];
  const held = occurrences(db, candidates, whole);
  const partTokens = [...new Set(parts.flatMap((p) => tokenize(p)))];
  const partCount = held.size === 0 && partTokens.length > 0 ? pagesWithTokens(db, partTokens, true).length : 0;

  const idByPath = new Map<string, number>();
  const pattern = wholeTermPattern(whole);
  const chosen: { id: number; passage: Passage | null }[] = [];
  const taken = new Set<number>();
  // The search's pages first, in its order (a page id from its path, looked up once each).
  const pathSql = `SELECT id FROM pages WHERE path = ?`;
  for (const p of ranked) {
    if (chosen.length >= limit) break;
    let id = idByPath.get(p.pagePath);
    if (id === undefined) {
      id = (cached(db, pathSql).pluck().get(p.pagePath) as number | undefined) ?? -1;
      idByPath.set(p.pagePath, id);
    }
    if (!held.has(id) || taken.has(id)) continue;
    pattern.lastIndex = 0;
    if (!pattern.test(p.text)) continue;
    taken.add(id);
    chosen.push({ id, passage: p });
  }
  const rest = [...held.entries()].filter(([id]) => !taken.has(id)).sort((a, b) => b[1].times - a[1].times || a[0] - b[0]);
  for (const [id] of rest) {
    if (chosen.length >= limit) break;
    taken.add(id);
    chosen.push({ id, passage: null });
  }
  const loaded = loadPages(db, chosen.filter((c) => c.passage === null).map((c) => c.id));
  const passages: Passage[] = [];
  for (const c of chosen) {
    if (c.passage) passages.push(c.passage);
    else {
      const page = loaded.get(c.id);
      const where = held.get(c.id)!;
      if (page) passages.push(chunkPassage(db, page, where.at, where.end));
    }
  }
  return { count: held.size, passages, parts, partCount };
}
