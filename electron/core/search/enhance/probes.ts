/**
 * The model-written probes of an enhanced search: alternative phrasings of the query (multi-query) and a short
 * hypothetical passage that would answer it (HyDE), each with its own short time limit.
 */
import type { Completer } from './completer';

/** Time limit of one probe-writing reply, ms. */
export const PROBE_TIMEOUT_MS = 10_000;

const MULTI_PROMPT = (n: number) =>
  [
    `Write ${n} different search queries that find passages answering the user's query in a knowledge base:`,
    'other words, synonyms, the other language (Chinese or English) where it helps. Keep codes and names as written.',
    `Reply with exactly ${n} lines, one query per line, no numbering, no explanation.`,
  ].join(' ');

const HYDE_PROMPT = [
  'Write a short passage (2-4 sentences) that could appear in a document answering the user\'s query,',
  'in the language of the query. Plain text only, no preamble.',
].join(' ');

/** A query normalised for spotting duplicates: NFKC, case-folded, punctuation and spaces collapsed. */
export function sameQueryKey(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, ' ').trim();
}

/** Lines of a reply as queries: list markers and quotes stripped, empty, too long and duplicate lines dropped. */
export function queriesOfReply(reply: string, original: string, n: number): string[] {
  const seen = new Set([sameQueryKey(original)]);
  const out: string[] = [];
  for (const raw of reply.split('\n')) {
    const line = raw.trim().replace(/^(?:[-*•]|\d+[.)、])\s*/, '').replace(/^["'“「](.*)["'”」]$/, '$1').trim();
    const key = sameQueryKey(line);
    if (!key || line.length > 300 || seen.has(key)) continue;
    seen.add(key);
    out.push(line);
    if (out.length === n) break;
  }
  return out;
}

/** Up to `n` alternative queries for `query` (never the query itself, no duplicates). Throws what the completer throws. */
export async function alternativeQueries(query: string, n: number, completer: Completer, signal?: AbortSignal): Promise<string[]> {
  const messages = [{ role: 'system' as const, content: MULTI_PROMPT(n) }, { role: 'user' as const, content: query }];
  const reply = await completer(messages, { maxTokens: 60 * n, timeoutMs: PROBE_TIMEOUT_MS, signal });
  return queriesOfReply(reply, query, n);
}

/** A hypothetical passage answering `query`, or null when the reply is empty. Throws what the completer throws. */
export async function hypotheticalPassage(query: string, completer: Completer, signal?: AbortSignal): Promise<string | null> {
  const messages = [{ role: 'system' as const, content: HYDE_PROMPT }, { role: 'user' as const, content: query }];
  const reply = await completer(messages, { maxTokens: 200, timeoutMs: PROBE_TIMEOUT_MS, signal });
  const text = reply.trim().slice(0, 1500);
  return text || null;
}
