/**
 * @-mentions in the composer: where a mention is being typed, which pages match it (fuzzy, so
 * `gw` finds "gateway" and `部署` finds "部署指南"), and what choosing one does to the text.
 */
import type { PageSummary } from '../../../shared/models';

/** A mention being typed: the `@` at `start`, the text typed after it up to the caret. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** The longest text after `@` still read as a mention query. */
const MAX_QUERY = 60;

/**
 * The mention being typed at `caret`, or null. The `@` must start the text or follow a space or a
 * character that is not part of an ASCII word (so `a@b.com` is not a mention, but `看@网关` is), and
 * no whitespace may lie between it and the caret.
 */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const from = Math.max(0, caret - MAX_QUERY - 1);
  for (let i = caret - 1; i >= from; i--) {
    const c = text[i]!;
    if (/\s/.test(c)) return null;
    if (c !== '@') continue;
    const before = text[i - 1] ?? '';
    if (before !== '' && /[A-Za-z0-9_.]/.test(before)) return null;
    return { start: i, query: text.slice(i + 1, caret) };
  }
  return null;
}

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Characters after which a match counts as a word start. */
const BOUNDARY = /[\s/._\-[\]()（）、，。]/;

/**
 * How well `query` matches `target`, or null when it does not: every character of the query must
 * appear in order (case- and width-insensitive). Contiguous runs, word starts and an early first
 * match score higher; a substring match beats any scattered one.
 */
export function fuzzyScore(query: string, target: string): number | null {
  const q = fold(query);
  const t = fold(target);
  if (q === '') return 0;
  const at = t.indexOf(q);
  if (at >= 0) return 1000 + (at === 0 || BOUNDARY.test(t[at - 1]!) ? 200 : 0) - at - t.length / 100;
  let score = 0;
  let run = 0;
  let from = 0;
  for (const c of q) {
    const found = t.indexOf(c, from);
    if (found < 0) return null;
    run = found === from && from > 0 ? run + 1 : 0;
    score += 10 + run * 15 + (found === 0 || BOUNDARY.test(t[found - 1]!) ? 20 : 0) - Math.min(found - from, 10);
    from = found + c.length;
  }
  return score - t.length / 100;
}

/**
 * The pages matching `query`, best first, at most `limit` (default 8, sensible 5–20). A page
 * matches by its title or its path; with an empty query the first pages by path are returned.
 */
export function matchPages(pages: PageSummary[], query: string, limit = 8): PageSummary[] {
  const scored: { page: PageSummary; score: number }[] = [];
  for (const page of pages) {
    const byTitle = fuzzyScore(query, page.title);
    const byPath = fuzzyScore(query, page.path.replace(/^wiki\//, ''));
    const best = Math.max(byTitle ?? -Infinity, byPath === null ? -Infinity : byPath - 5);
    if (best > -Infinity) scored.push({ page, score: best });
  }
  scored.sort((a, b) => b.score - a.score || a.page.path.localeCompare(b.page.path));
  return scored.slice(0, limit).map((s) => s.page);
}

/** The text with the mention replaced by a `[[path]]` reference and a space, and where the caret goes. */
export function insertMention(text: string, mention: MentionQuery, caret: number, path: string): { text: string; caret: number } {
  const reference = `[[${path}]] `;
  const rest = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, mention.start) + reference + rest, caret: mention.start + reference.length };
}

/** One piece of a message: plain text, or a `[[wiki/…]]` reference. */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'ref'; path: string; raw: string };

/** Split a message into plain text and `[[wiki/…]]` references (only well-formed page paths become references). */
export function splitRefs(text: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let from = 0;
  for (const m of text.matchAll(/\[\[(wiki\/[^[\]\n|]+?)(?:\|[^[\]\n]*)?\]\]/g)) {
    if (m.index > from) parts.push({ kind: 'text', text: text.slice(from, m.index) });
    parts.push({ kind: 'ref', path: m[1]!.trim(), raw: m[0] });
    from = m.index + m[0].length;
  }
  if (from < text.length) parts.push({ kind: 'text', text: text.slice(from) });
  return parts;
}
