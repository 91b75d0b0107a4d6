/**
 * Follow-up rewriting: "那第二步呢？" or "and on Windows?" searched as typed finds nothing useful, so before the
 * search the model rewrites it into a standalone query from the last turns. Without a model, or when it fails or is
 * late, the message is widened with the previous question's key terms instead, and the outcome says so. Explicit
 * `[[wiki/…]]` references of the message are kept verbatim either way.
 */
import { parseWikiRefs } from '../../../../shared/wiki-refs';
import { failureNote, type Completer } from './completer';

/** An earlier message of the conversation. */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** The query to search and how it came about. */
export interface Rewritten {
  query: string;
  /** 'model': rewritten by the model; 'terms': widened with key terms; null: the message as typed. */
  via: 'model' | 'terms' | null;
  /** Why the model did not rewrite it (no model, timeout, an unusable reply); null when it did or was not asked. */
  note: string | null;
  ms: number;
}

/** The rewrite's own time limit: a slow model must not hold the turn. */
export const REWRITE_TIMEOUT_MS = 8000;
/** Earlier messages shown to the model. */
const TURNS_SHOWN = 4;
/** Characters of each earlier message shown to the model (answers are long; their gist is at the start). */
const TURN_CHARS = 300;
/** A reply longer than this is an answer, not a query. */
const MAX_QUERY_CHARS = 300;
/** Key terms borrowed from the previous question without a model. */
const MAX_TERMS = 6;

const PROMPT = [
  'You rewrite the last message of a conversation into one standalone search query for a knowledge base.',
  'Resolve pronouns and ellipsis ("the second step", "and on Windows?") from the earlier messages.',
  'Keep the language of the message, keep names, codes and [[wiki/...]] references exactly as written.',
  'Reply with the query only: one line, no quotes, no explanation.',
].join(' ');

/** Words too common to carry a question's topic (English and Chinese function words). */
const STOP = new Set(
  ('the a an and or of to in on for with how what which who why when where is are was were be do does did can could ' +
    'should would will i you we it this that these those my your me about from by as at into there here then than ' +
    '怎么 如何 什么 哪些 哪个 为什么 是否 可以 能 吗 呢 的 了 和 与 在 是 有 我 你 请问 一下 那 这 那个 这个 如果 还有 还是')
    .split(' '),
);

const words = new Intl.Segmenter(undefined, { granularity: 'word' });

const SINGLE_HAN = /^\p{Script=Han}$/u;

/**
 * The key terms of a question: word-like, not a function word, two characters or more; in order, each once. Single
 * Chinese characters in a row are joined ("灰" "度" → "灰度"): the segmenter splits words its dictionary lacks.
 */
export function keyTerms(text: string): string[] {
  const out: string[] = [];
  const add = (word: string) => {
    if (word.length < 2 || STOP.has(word.toLowerCase()) || /^\d+$/.test(word)) return;
    if (!out.some((w) => w.toLowerCase() === word.toLowerCase())) out.push(word);
  };
  let run = '';
  for (const s of words.segment(parseWikiRefs(text).text.normalize('NFKC'))) {
    const word = s.segment.trim();
    if (s.isWordLike && SINGLE_HAN.test(word) && !STOP.has(word)) {
      run += word;
      continue;
    }
    add(run);
    run = '';
    if (s.isWordLike) add(word);
  }
  add(run);
  return out;
}

/** The message plus the previous question's key terms it does not already contain. */
export function widenWithTerms(message: string, history: HistoryTurn[]): string {
  const previous = [...history].reverse().find((t) => t.role === 'user')?.content ?? '';
  const have = message.toLowerCase();
  const extra = keyTerms(previous).filter((t) => !have.includes(t.toLowerCase())).slice(0, MAX_TERMS);
  return extra.length ? `${message} ${extra.join(' ')}` : message;
}

/** The first line of a reply, without quotes or a "Query:" label; null when it is empty or too long to be a query. */
export function queryOfReply(reply: string): string | null {
  const line = reply.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const bare = line.replace(/^(?:standalone\s+)?(?:search\s+)?query\s*[:：]\s*/i, '').replace(/^["'“「『](.*)["'”」』]$/, '$1').trim();
  return bare && bare.length <= MAX_QUERY_CHARS ? bare : null;
}

/** `query` with every `[[…]]` reference of `message` it lost appended, verbatim. */
function keepRefs(query: string, message: string): string {
  const lost = (message.match(/\[\[[^\]]+\]\]/g) ?? []).filter((ref) => !query.includes(ref));
  return lost.length ? `${query} ${lost.join(' ')}` : query;
}

function transcript(history: HistoryTurn[], message: string): string {
  const lines = history.slice(-TURNS_SHOWN).map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.content.slice(0, TURN_CHARS)}`);
  return [...lines, `User (last message): ${message}`].join('\n');
}

/**
 * The query for `message` after `history`. Without history it is the message as typed. With a completer the model
 * rewrites it (within {@link REWRITE_TIMEOUT_MS}); without one, or when the model fails, it is widened with the
 * previous question's key terms and `note` says why. Rejects only when `signal` aborts.
 */
export async function rewriteFollowUp(
  message: string,
  history: HistoryTurn[],
  completer: Completer | string,
  signal?: AbortSignal,
): Promise<Rewritten> {
  const t0 = performance.now();
  const took = () => Math.round(performance.now() - t0);
  if (!history.some((t) => t.role === 'user')) return { query: message, via: null, note: null, ms: 0 };
  let why: string;
  if (typeof completer === 'string') why = `no model (${completer})`;
  else {
    try {
      const messages = [{ role: 'system' as const, content: PROMPT }, { role: 'user' as const, content: transcript(history, message) }];
      const reply = await completer(messages, { maxTokens: 80, timeoutMs: REWRITE_TIMEOUT_MS, signal });
      const query = queryOfReply(reply);
      if (query) return { query: keepRefs(query, message), via: 'model', note: null, ms: took() };
      why = 'the model gave no usable query';
    } catch (err) {
      if (signal?.aborted) throw err;
      why = failureNote(err);
    }
  }
  const note = `The follow-up was not rewritten by the model (${why}); searched with the previous question's key terms added.`;
  return { query: widenWithTerms(message, history), via: 'terms', note, ms: took() };
}
