/**
 * The query's words in a row. A person who pastes an error message (`Invalid read of size 4`) or puts
 * words in quotes wants the passage that says exactly that, and bm25 alone cannot tell it from a short
 * passage that has the same words apart: on Debian's documentation a Perl example with `$bytes_read != 4`,
 * `invalid packet` and `$pkt_size` outranked Valgrind's "Invalid read of size 4". So the keyword stage
 * also looks for the query as a phrase, and the chunks that hold it come first (see keyword.ts).
 *
 * The phrase is the query's own index tokens in order (toIndexText), so it matches text the tokenizer
 * turns into the same tokens: stems, identifiers and their parts alike. CJK text is left out: its tokens
 * depend on the whole run around them, and its bigrams already reward characters in a row. A phrase only
 * in a bare heading, one with no text of its own before the next, does not count: it names what comes
 * later without answering ("### Docx to HTML", then "### Styles" and a passage about styles), while a
 * heading over its own text ("4.2.8. Memory leak detection" and what Memcheck does) says what that text is.
 */
import type Database from 'better-sqlite3';
import { cached } from '../store/statements';
import { loadPages } from './passages';
import { hasWords } from '../text/chunk';
import { isCjkToken, queryWords, tokenize } from '../text/tokenize';
import { FUNCTION_TERMS } from './keyword-terms';
import { chunkScopeClause } from './scope';

/** Words a query needs before it is searched as a phrase unquoted: two words together are too common to
 *  prefer a chunk for (`hang up`, `read size`); three or more written as the query writes them are a quote. */
export const PHRASE_WORDS = 3;
/** Tokens of a phrase at most: a longer query is a question, never found written out. */
export const PHRASE_TOKENS = 32;
/** Chunks holding a phrase that come first, at most: the best by bm25 of the phrase. */
export const PHRASE_CHUNKS = 10;

/** Quoted parts of a query: straight or curly double quotes. */
const QUOTED = /"([^"]+)"|“([^”]+)”/g;

/**
 * The phrases of a query, each as its index tokens: the parts in quotes that have two words or more,
 * one of them not a function word; without such a part, the whole query when it has PHRASE_WORDS words
 * or more, two of them not function words. None when the text has CJK or too many tokens.
 */
export function queryPhrases(query: string): string[][] {
  const quoted = [...query.matchAll(QUOTED)].map((m) => m[1] ?? m[2]!);
  const phrases = quoted.map((text) => phraseOf(text, 2, 1)).filter((p): p is string[] => p !== null);
  if (phrases.length > 0) return phrases;
  const whole = phraseOf(query.replace(/["“”]/g, ' '), PHRASE_WORDS, 2);
  return whole ? [whole] : [];
}

function phraseOf(text: string, words: number, content: number): string[] | null {
  const found = queryWords(text);
  if (found.length < words || found.filter((w) => !FUNCTION_TERMS.has(w.term)).length < content) return null;
  const tokens = tokenize(text);
  if (tokens.length > PHRASE_TOKENS || tokens.some(isCjkToken)) return null;
  return tokens;
}

/** The FTS5 expression finding chunks whose text holds one of the phrases. */
function phraseMatch(phrases: string[][]): string {
  return phrases.map((p) => `{tokens} : "${p.map((t) => t.replace(/"/g, '""')).join(' ')}"`).join(' OR ');
}

/**
 * Chunks whose text holds one of `phrases` outside its headings, the best PHRASE_CHUNKS (at most `count`)
 * by bm25, inside `pageIds` when given. One statement: FTS5 finds the chunks (checking positions only in
 * chunks holding every token of a phrase) with their spans; then each one's text without its bare
 * headings is tokenized to see that a phrase is still there.
 */
export function phraseChunks(db: Database.Database, phrases: string[][], count: number, pageIds: number[] | null): number[] {
  if (phrases.length === 0) return [];
  const sql = `SELECT c.id, c.page_id, c.start, c.end FROM
                 (SELECT rowid AS id, rank FROM chunks_fts WHERE chunks_fts MATCH ? ${chunkScopeClause(pageIds)} ORDER BY rank LIMIT ?) h
               JOIN chunks c ON c.id = h.id ORDER BY h.rank`;
  const match = phraseMatch(phrases);
  const limit = Math.min(count, PHRASE_CHUNKS);
  const found = cached(db, sql).raw().all(...(pageIds ? [match, JSON.stringify(pageIds), limit] : [match, limit])) as [number, number, number, number][];
  if (found.length === 0) return [];
  const pages = loadPages(db, found.map((f) => f[1]));
  return found
    .filter(([, pageId, start, end]) => {
      const page = pages.get(pageId);
      return page !== undefined && phrases.some((p) => holdsPhrase(tokenize(withoutBareHeadings(page.text, page.headings, start, end)), p));
    })
    .map(([id]) => id);
}

/**
 * The text of `[start, end)` with its bare headings left out (a line break in place of each): those with
 * no words between them and the next heading, or the page's end. `headings` are in page order.
 */
function withoutBareHeadings(text: string, headings: { start: number; end: number }[], start: number, end: number): string {
  let out = '';
  let from = start;
  headings.forEach((h, i) => {
    if (h.end <= from || h.start >= end) return;
    if (hasWords(text, h.end, headings[i + 1]?.start ?? text.length)) return;
    out += `${text.slice(from, Math.max(from, h.start))}\n`;
    from = Math.max(from, h.end);
  });
  return out + text.slice(from, Math.max(from, end));
}

/** True when `tokens` hold `phrase` in a row. */
function holdsPhrase(tokens: string[], phrase: string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    let k = 0;
    while (k < phrase.length && tokens[i + k] === phrase[k]) k++;
    if (k === phrase.length) return true;
  }
  return false;
}
