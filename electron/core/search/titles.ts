/**
 * A page named by the query comes first. A person who types a name (`CMP0077`, `install`, `zod`) and has a
 * page of that name wants that page, but bm25 weighs a page's title against all its text: on CMake's help,
 * the policy list that mentions CMP0077 twice in a short section outranked the page titled CMP0077. A page is
 * named by the query when its title's index tokens are the query's, function words aside (English and
 * Chinese: `RRF 是什么意思？` names the page "RRF"), or its words are, joined names aside (`unity build` names
 * UNITY_BUILD). Only short queries can be a title.
 */
import type Database from 'better-sqlite3';
import { cached } from '../store/statements';
import { tokenize } from '../text/tokenize';
import { chineseFunctionTerms, FUNCTION_TERMS } from './keyword-terms';

/** Most distinct content terms a query may have and still be looked for as a page title. */
export const TITLE_TERMS_MAX = 6;

/** Of `pageIds`, the pages whose title is the query (see the header), in one statement. */
export function pagesNamed(db: Database.Database, query: string, pageIds: number[]): Set<number> {
  const weak = chineseFunctionTerms(query);
  const content = (tokens: string[]) => new Set(tokens.filter((t) => t !== '' && !FUNCTION_TERMS.has(t) && !weak.has(t)));
  const wanted = content(tokenize(query));
  if (wanted.size === 0 || wanted.size > TITLE_TERMS_MAX || pageIds.length === 0) return new Set();
  const wantedWords = wordsOf(wanted);
  const sql = `SELECT id, title_tokens FROM pages WHERE id IN (SELECT value FROM json_each(?))`;
  const rows = cached(db, sql).raw().all(JSON.stringify([...new Set(pageIds)])) as [number, string][];
  const named = new Set<number>();
  for (const [id, titleTokens] of rows) {
    const title = content(titleTokens.split(' '));
    if (same(title, wanted) || (wantedWords.size > 0 && same(wordsOf(title), wantedWords))) named.add(id);
  }
  return named;
}

/**
 * The tokens that are words, without the joined names an identifier also gives: `unity build` names the page
 * UNITY_BUILD (whose tokens are `unity_build`, `uniti`, `build`), `api gateway` the page "api-gateway".
 */
function wordsOf(tokens: Set<string>): Set<string> {
  return new Set([...tokens].filter((t) => !JOINED.test(t)));
}
const JOINED = /[_\-./:@]/;

function same(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}
