/**
 * The LLM reranker: the chat model reads the numbered candidates and replies with their numbers, best first. The
 * reply is parsed strictly (integers in range, no duplicates); candidates it leaves out keep their fused order after
 * the ranked ones; a reply that fails validation, a timeout or an error keeps the fused order with `fallback` set.
 */
import { SiftError } from '../../../../shared/errors';
import { failureNote, type Completer } from '../enhance/completer';
import type { Reranker, RerankOutcome } from './types';

/** Time limit of the rerank reply, ms. */
export const LLM_RERANK_TIMEOUT_MS = 15_000;
/** Characters of each candidate shown to the model. */
const PASSAGE_CHARS = 500;

const PROMPT = [
  'You rank passages by how well they answer the query. The passages are numbered [1], [2], ….',
  'Reply with the numbers of the relevant passages, most relevant first, separated by commas, e.g. 3, 1, 2.',
  'Only numbers; leave out passages that do not help.',
].join(' ');

/** The 0-based order a reply names, or why it is not valid. Numbers are 1-based in the reply. */
export function parseRanking(reply: string, n: number): { order: number[] } | { invalid: string } {
  const body = reply.trim().replace(/^\[|\]$/g, '');
  if (!body) return { invalid: 'the reply was empty' };
  const tokens = body.split(/[\s,，、;>]+/).map((t) => t.replace(/^\[|\]$/g, '')).filter((t) => t !== '');
  const order: number[] = [];
  for (const token of tokens) {
    if (!/^\d+$/.test(token)) return { invalid: `"${token.slice(0, 20)}" is not a passage number` };
    const number = Number(token);
    if (number < 1 || number > n) return { invalid: `${number} is not between 1 and ${n}` };
    if (order.includes(number - 1)) return { invalid: `${number} is named twice` };
    order.push(number - 1);
  }
  return { order };
}

/** The ranked indices, then every index left out, in fused order. */
export function completeOrder(ranked: number[], n: number): number[] {
  return [...ranked, ...Array.from({ length: n }, (_, i) => i).filter((i) => !ranked.includes(i))];
}

/** An LLM reranker over `completer`. */
export function llmReranker(completer: Completer): Reranker {
  return {
    kind: 'llm',
    async rerank(query: string, passages: string[], signal?: AbortSignal): Promise<RerankOutcome> {
      const t0 = performance.now();
      const n = passages.length;
      const outcome = (order: number[], fallback: string | null): RerankOutcome => ({
        kind: 'llm', order, scores: passages.map(() => null), fallback, ms: Math.round(performance.now() - t0),
      });
      const fused = Array.from({ length: n }, (_, i) => i);
      if (n === 0) return outcome([], null);
      const listed = passages.map((p, i) => `[${i + 1}] ${p.replace(/\s+/g, ' ').trim().slice(0, PASSAGE_CHARS)}`);
      const messages = [
        { role: 'system' as const, content: PROMPT },
        { role: 'user' as const, content: `Query: ${query}\n\n${listed.join('\n\n')}` },
      ];
      let reply: string;
      try {
        reply = await completer(messages, { maxTokens: 8 * n + 16, timeoutMs: LLM_RERANK_TIMEOUT_MS, signal });
      } catch (err) {
        if (signal?.aborted || (err instanceof SiftError && err.code === 'cancelled')) throw err;
        return outcome(fused, `the model failed: ${failureNote(err)}`);
      }
      const parsed = parseRanking(reply, n);
      if ('invalid' in parsed) return outcome(fused, `the model's ranking was not valid (${parsed.invalid})`);
      return outcome(completeOrder(parsed.order, n), null);
    },
  };
}
