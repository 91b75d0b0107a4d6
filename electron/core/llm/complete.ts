/**
 * One short, non-streamed model reply for the helpers around search (follow-up rewriting, multi-query, HyDE, LLM
 * rerank, digests): the streamed chat gathered into one string, with its own time limit, so a slow model makes the
 * helper fall back instead of holding the turn.
 */
import { SiftError } from '../../../shared/errors';
import type { LlmClient, LlmMessage } from './types';

/** Options of {@link complete}. */
export interface CompleteOptions {
  /** The whole reply must arrive within this time, ms. Default 15000. */
  timeoutMs?: number;
  /** The caller's cancel (the turn's). */
  signal?: AbortSignal;
  /** Upper bound on generated tokens (`num_predict`). Default 256. */
  maxTokens?: number;
  /** Sampling temperature. Default 0 (the same question gives the same rewrite). */
  temperature?: number;
}

/**
 * The model's whole reply text (reasoning dropped), trimmed. Throws SiftError('timeout') when `timeoutMs`
 * passes first, SiftError('cancelled') when `signal` aborts, and whatever the client throws otherwise.
 */
export async function complete(llm: LlmClient, model: string, messages: LlmMessage[], options: CompleteOptions = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  let text = '';
  try {
    const stream = llm.chat({
      model, messages, think: false, signal,
      options: { num_predict: options.maxTokens ?? 256, temperature: options.temperature ?? 0 },
    });
    for await (const chunk of stream) if (chunk.type === 'token') text += chunk.text;
  } catch (err) {
    if (timer.signal.aborted && !options.signal?.aborted) throw new SiftError('timeout', `the model gave no reply within ${Math.round(timeoutMs / 1000)} s`);
    throw err;
  } finally {
    clearTimeout(handle);
  }
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}
