/**
 * The one short model reply the search enhancements need (rewrite, multi-query, HyDE, LLM rerank), as a function:
 * so search code never names a client or a model, and tests pass the mock server's client through the same path.
 */
import { SiftError } from '../../../../shared/errors';
import { complete } from '../../llm/complete';
import type { LlmClient, LlmMessage } from '../../llm/types';

/** One short reply to `messages`. Throws SiftError('timeout') past `timeoutMs`, 'cancelled' on `signal`. */
export type Completer = (messages: LlmMessage[], options: { maxTokens: number; timeoutMs: number; signal?: AbortSignal }) => Promise<string>;

/** A chat model's completer, or why there is none (no model installed, Ollama not reachable). */
export type CompleterSource = () => Promise<Completer | string>;

/** A completer for `model` on `llm`. */
export function completerOf(llm: LlmClient, model: string): Completer {
  return (messages, options) => complete(llm, model, messages, options);
}

/**
 * The completer of the configured model, else the first installed; the reason as a string when there is none.
 * Asks the server once per call (a search that needs no model never asks).
 */
export function modelCompleter(llm: () => LlmClient, model: () => string | undefined): CompleterSource {
  return async () => {
    const client = llm();
    try {
      const name = model() ?? (await client.listModels())[0]?.name;
      return name ? completerOf(client, name) : 'Ollama has no model installed';
    } catch (err) {
      if (err instanceof SiftError && err.code === 'llm_unavailable') return `Ollama is not reachable at ${client.host}`;
      return err instanceof Error ? err.message : String(err);
    }
  };
}

/** A failure of a helper call as a short note for people ("timed out after 8 s", the error's message). */
export function failureNote(err: unknown): string {
  if (err instanceof SiftError && err.code === 'timeout') return err.message;
  return err instanceof Error ? err.message : String(err);
}
