/**
 * What the keyword stage searches for: the query's terms through the index's own tokenizer, which
 * identifiers the knowledge base holds whole, English function words set aside, and which terms are
 * distinctive enough to choose candidates (the rest only add to their scores). Every figure comes
 * from term-stats.ts in at most one statement, and whether a hyphenated compound occurs as a phrase
 * from one more, so a query of any length costs a fixed number of statements.
 */
import type Database from 'better-sqlite3';
import { cjkWords } from '../text/cjk-runs';
import { queryTerms, queryWords, tokenize } from '../text/tokenize';
import { cached } from '../store/statements';
import { termStats, type TermStats } from './term-stats';

/** The FTS5 MATCH expression for these terms, and these names in the title and path columns, or null when there are none. */
export function matchExpression(terms: string[], names: string[] = []): string | null {
  const quoted = (t: string): string => `"${t.replace(/"/g, '""')}"`;
  const all = [...terms.map(quoted), ...names.map((n) => `{title path} : ${quoted(n)}`)];
  return all.length > 0 ? all.join(' OR ') : null;
}

/** The terms the keyword stage searches for, and the identifiers of the query the knowledge base never holds. */
export interface KeywordTerms {
  terms: string[];
  /**
   * Hyphenated compounds of the query the knowledge base holds whole (`dotenv-expand`), searched whole
   * in page titles and paths only: a page named by one is about it, while body text hyphenates freely.
   */
  names: string[];
  /** Identifier-like words (as typed) with no exact occurrence in the knowledge base, e.g. `E_CONN_RESET`. */
  noExactMatch: string[];
  /** Terms that are function words (English, Chinese, and bigrams made with Chinese ones): left out
   *  when the query has other terms. */
  weak: string[];
  /** Parts standing in for an identifier the knowledge base does not hold (`ln` of `dLNs`): they add to
   *  the scores of candidates other terms choose, and choose only when nothing else can. */
  partial: string[];
}

/** Compounds whose phrase is looked up per query, at most (each is a LIMIT 1 search inside one statement). */
const PHRASE_CHECKS = 8;

/** Of `phrases` (token lists), those no chunk holds in a row, in one statement. */
function phrasesMissing(db: Database.Database, phrases: string[][]): Set<number> {
  if (phrases.length === 0) return new Set();
  const one = `SELECT ? AS k WHERE EXISTS (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1)`;
  const sql = phrases.map(() => one).join(' UNION ALL ');
  const params = phrases.flatMap((p, k) => [k, `{tokens} : "${p.join(' ')}"`]);
  const held = new Set(cached(db, sql).pluck().all(...params) as number[]);
  return new Set(phrases.map((_, k) => k).filter((k) => !held.has(k)));
}

/** The last query's terms per connection: a search reads them for its stage and again for its passages. */
const lastTerms = new WeakMap<Database.Database, { key: string; terms: KeywordTerms }>();

/**
 * The query's search terms. An identifier is searched as its whole form only when the knowledge
 * base holds it, so a page with `E_CONN_RESET` is never outranked by pages that merely say "reset";
 * a name it holds only as another language spells it is searched so (`E_CONN_RESET` as Node's
 * `ECONNRESET`, `maxRetries` as `max_retries`); only when no spelling is there do its parts stand in,
 * and the word is named in `noExactMatch`.
 * A hyphenated compound is searched as its words (see queryWords), and whole among `names` when the
 * knowledge base holds it; it is named in `noExactMatch` when no chunk holds its words in a row
 * (`CVE-2024-3094` on a folder with only CVE-2024-1234).
 */
export function keywordTerms(db: Database.Database, query: string): KeywordTerms {
  const words = queryWords(query);
  const looked = words.flatMap((w) => [...(w.identifier ? [w.term, ...(w.spellings ?? [])] : []), ...(w.compound ? [w.compound.term] : [])]);
  const stats = termStats(db, looked);
  const key = `${stats.version}\u0000${query}`;
  const last = lastTerms.get(db);
  if (last && last.key === key) return last.terms;
  const terms = new Set<string>();
  const partial = new Set<string>();
  const names = new Set<string>();
  const missing: { text: string; at: number }[] = [];
  const compounds = new Map<string, { text: string; phrase: string[]; at: number }>();
  words.forEach((word, at) => {
    // A name the knowledge base holds only as another language spells it (`ECONNRESET`, `max_retries`) is held so.
    const other = word.identifier && stats.df(word.term) === 0 ? word.spellings?.find((s) => stats.df(s) > 0) : undefined;
    const spelling = other ?? word.term;
    const held = !word.identifier || stats.df(spelling) > 0;
    if (held || word.parts.length === 0) terms.add(spelling);
    if (!held) for (const part of word.parts) if (!terms.has(part)) terms.add(part), partial.add(part);
    const { compound } = word;
    if (!compound) {
      if (!held) missing.push({ text: word.text, at });
    } else if (!compounds.has(compound.text)) {
      compounds.set(compound.text, { text: compound.text, phrase: compound.phrase, at });
      if (stats.df(compound.term) > 0) names.add(compound.term);
    }
  });
  const checked = [...compounds.values()].slice(0, PHRASE_CHECKS);
  const absent = phrasesMissing(db, checked.map((c) => c.phrase));
  checked.forEach((c, k) => absent.has(k) && missing.push({ text: c.text, at: c.at }));
  const noExactMatch = missing.sort((a, b) => a.at - b.at).map((m) => m.text);
  const chinese = chineseFunctionTerms(query);
  const weak = [...terms].filter((t) => FUNCTION_TERMS.has(t) || chinese.has(t));
  const result = { terms: [...terms], names: [...names], noExactMatch, weak, partial: [...partial] };
  lastTerms.set(db, { key, terms: result });
  return result;
}

/**
 * English function words, left out of a query that has other terms. In a small knowledge base
 * (below COMMON_TERMS_FROM) no term is too common to search, and there a chunk that shares only
 * "to" with "is E_CONN_RESET safe to retry" outranked the one naming E_CONN_RESET: in six notes the
 * two are equally rare, and the shorter chunk wins bm25. Words that carry meaning in a question
 * (not, no, how, why) are kept.
 */
export const FUNCTION_WORDS = [
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'then', 'than', 'as', 'at', 'by', 'for', 'from', 'in', 'into',
  'of', 'on', 'onto', 'to', 'with', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did',
  'it', 'its', 'this', 'that', 'these', 'those', 'there', 'their', 'they', 'such', 'will', 'would', 'can',
  'could', 'should', 'shall', 'may', 'might', 'has', 'have', 'had', 'i', 'we', 'you', 'my', 'our', 'your', 'me',
  'what', 'which', 'who', 'whom', 'when', 'where',
  // "safeParse vs parse": a comparison's connector is not what is compared (it matched every "VS Code").
  'vs', 'versus',
] as const;
/** FUNCTION_WORDS as index terms (stemmed as the index stems them, e.g. `does` → `doe`); focus.ts uses them too. */
export const FUNCTION_TERMS = new Set(FUNCTION_WORDS.flatMap((w) => tokenize(w)));

/**
 * Chinese question words, particles and function words, as the segmenter gives them (the counterpart
 * of FUNCTION_WORDS: pronouns, prepositions and modal verbs too). `RRF 是什么意思？`
 * was searched as `rrf, 是, 什么, 意思, 是什, 么意`: five tokens that say nothing against the one term,
 * and its top passage had no RRF. Like FUNCTION_WORDS they are left out of a query that has other terms,
 * and so is every bigram made with a character of a word of two or more characters among them, or of a
 * particle (`是什`, `么意`). A single character that may also be half of a word the segmenter did not
 * know (会 of 会议, 时 of 超时) is left out alone, its bigrams kept. Negations (不, 不能, 没有) stay.
 */
export const CHINESE_FUNCTION_WORDS = [
  '什么', '怎么', '怎样', '怎么样', '如何', '哪些', '哪个', '哪里', '哪儿', '为什么', '为何', '意思', '是否', '能否',
  '可否', '有没有', '是不是', '请问', '一下', '几次', '多少', '多久', '这个', '那个', '这些', '那些', '这里', '那里',
  '我们', '你们', '或者', '还是', '可以', '需要', '应该',
] as const;
/** Particles: one character, never half of a word a question is about. */
export const CHINESE_PARTICLES = ['是', '的', '了', '吗', '呢', '吧', '啊', '呀', '嘛', '么', '啥'] as const;
/** Function words of one character that can be half of an unknown word: left out alone, their bigrams kept. */
export const CHINESE_FUNCTION_CHARS = [
  '哪', '几', '这', '那', '我', '你', '他', '她', '它', '在', '和', '与', '及', '跟', '或', '就', '也', '都', '把',
  '被', '对', '从', '给', '向', '会', '能', '要', '有', '中', '里', '上', '下', '时', '之', '着', '过',
] as const;
const WEAK_WITH_BIGRAMS = new Set<string>([...CHINESE_FUNCTION_WORDS, ...CHINESE_PARTICLES]);
const WEAK_ALONE = new Set<string>(CHINESE_FUNCTION_CHARS);

/**
 * The CJK terms of a query that weigh nothing when it has others: its Chinese function words and
 * the bigrams that take a character from one (see CHINESE_FUNCTION_WORDS).
 */
export function chineseFunctionTerms(query: string): Set<string> {
  const out = new Set<string>();
  const text = query.normalize('NFKC');
  const weak = new Set<number>();
  for (const w of cjkWords(text)) {
    if (WEAK_ALONE.has(w.word)) out.add(w.word);
    if (!WEAK_WITH_BIGRAMS.has(w.word)) continue;
    out.add(w.word);
    for (let i = w.start; i < w.end; i++) weak.add(i);
  }
  for (const at of weak) {
    for (const from of [at - 1, at]) {
      const bigram = text.slice(from, from + 2);
      if (bigram.length === 2 && /^[\p{Script=Han}]{2}$/u.test(bigram)) out.add(bigram);
    }
  }
  return out;
}

/** Share of all chunks above which a term is left out of a query that has rarer terms. */
export const COMMON_TERM_SHARE = 0.25;
/** Knowledge bases with fewer chunks keep every term: scoring them all is cheap, and in a handful of
 *  notes a word in a quarter of them can still be the one that matters. */
export const COMMON_TERMS_FROM = 10_000;
/**
 * Share of all chunks above which a term only adds to the scores of chunks that rarer terms of the
 * query find, in a knowledge base of at least COMMON_TERMS_FROM chunks. Scoring every chunk that
 * holds a common term is what makes a keyword search slow, and a chunk holding nothing but common
 * terms of the query does not make the top of the list. SciFact train keyword nDCG@10: all terms
 * choosing 0.705, above 5 % scoring only 0.705, above 2 % 0.706, above 1 % 0.694 (too few candidates).
 */
export const SCORING_ONLY_SHARE = 0.02;

/** The terms of a query as the stage uses them. */
export interface StageTerms {
  /** Terms that choose candidate chunks (with the names). */
  choosing: string[];
  /** Terms that only add to the scores of the chunks the choosing terms find. */
  scoring: string[];
  names: string[];
  /** Parts standing in for an identifier the knowledge base lacks, beside whole terms: a chunk they
   *  choose without any whole term weighs PARTIAL_WEIGHT (see keyword.ts). */
  partial: string[];
}

/**
 * The query's terms (see keywordTerms) without its function words (English and Chinese), and without those in more than
 * COMMON_TERM_SHARE of the chunks of a knowledge base of at least `from` chunks (default
 * COMMON_TERMS_FROM). A filter that would leave no term is not applied.
 */
export function distinctiveTerms(db: Database.Database, query: string, from = COMMON_TERMS_FROM): string[] {
  const found = keywordTerms(db, query);
  return distinctive(found, termStats(db, found.terms), from);
}

function distinctive(found: KeywordTerms, stats: TermStats, from: number): string[] {
  const all = found.terms;
  const weak = new Set(found.weak);
  const worded = all.filter((t) => !weak.has(t));
  const terms = worded.length > 0 ? worded : all;
  if (terms.length < 2 || stats.chunks < from) return terms;
  const kept = terms.filter((t) => stats.df(t) <= stats.chunks * COMMON_TERM_SHARE);
  return kept.length > 0 ? kept : terms;
}

/** The query's distinctive terms split into those that choose candidates and those that only score them. */
export function stageTerms(db: Database.Database, found: KeywordTerms, from = COMMON_TERMS_FROM): StageTerms {
  const stats = termStats(db, found.terms);
  const terms = distinctive(found, stats, from);
  const partial = new Set(found.partial);
  const whole = terms.filter((t) => !partial.has(t));
  if (whole.length === 0 || whole.length === terms.length) return byShare(terms, [], stats, from, found.names);
  return byShare(whole, terms.filter((t) => partial.has(t)), stats, from, found.names);
}

/** `terms` split by how common they are (see SCORING_ONLY_SHARE), with `partial` beside them. */
function byShare(terms: string[], partial: string[], stats: TermStats, from: number, names: string[]): StageTerms {
  if (stats.chunks < from) return { choosing: terms, scoring: [], names, partial };
  const scoring = terms.filter((t) => stats.df(t) > stats.chunks * SCORING_ONLY_SHARE);
  if (scoring.length === terms.length) return { choosing: terms, scoring: [], names, partial };
  return { choosing: terms.filter((t) => !scoring.includes(t)), scoring, names, partial };
}

/** True when a query term occurs in the page's title tokens (the hit reason "title"). */
export function matchesTitle(query: string, titleTokens: string): boolean {
  const tokens = new Set(titleTokens.split(' '));
  return queryTerms(query).some((t) => tokens.has(t));
}
