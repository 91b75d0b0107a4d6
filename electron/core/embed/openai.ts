/**
 * The third embedder: a model behind an OpenAI-compatible `/v1/embeddings` (LM Studio, llama-server, vLLM, LocalAI or a
 * hosted API), through the `openai` package. Each request has a time limit; a rate limit with a short retry-after is
 * waited out once; every failure is a SiftError that says what to do.
 */
import OpenAI from 'openai';
import { redactSecrets } from '../base/redact';
import { SiftError } from '../../../shared/errors';
import { retryAfterMs } from '../base/retry-after';
import { checkBatchSize, inBatches, normalise, type Embedder } from './embedder';

/** Options for {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedOptions {
  /** Base URL with `/v1`, e.g. http://127.0.0.1:1234/v1. Required. */
  baseUrl: string;
  /** The API key, or null for a server that wants none. Never logged. */
  apiKey: string | null;
  /** The embedding model as the server names it, e.g. text-embedding-3-small or nomic-embed-text-v1.5. Required. */
  model: string;
  /** The provider's name, for messages. Default 'OpenAI-compatible server'. */
  name?: string;
  /** Texts per request. Default 64 (1–256). */
  batchSize?: number;
  /** Time limit per request, ms. Default 60000. */
  timeoutMs?: number;
  /** Longest retry-after waited out before the one retry of a rate-limited request, ms. Default 20000. */
  maxRetryWaitMs?: number;
}

interface Settings {
  client: OpenAI;
  where: string;
  model: string;
  timeoutMs: number;
  maxRetryWaitMs: number;
}

/**
 * An Embedder over `/v1/embeddings`. Probes the dimension with one call, so it throws at once: SiftError
 * ('llm_unavailable') when the server is not reachable, ('model_unavailable') for an unknown model, ('timeout'), or
 * ('llm_error') for a refused key, a rate limit and other failures.
 */
export async function createOpenAiEmbedder(options: OpenAiEmbedOptions): Promise<Embedder> {
  if (!options.model.trim()) throw new SiftError('invalid_argument', 'OpenAI-compatible embedder: the model name is empty.');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const settings: Settings = {
    client: new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'sift-no-key', maxRetries: 0, timeout: timeoutMs }),
    where: `${options.name ?? 'OpenAI-compatible server'} at ${options.baseUrl}`,
    model: options.model,
    timeoutMs,
    maxRetryWaitMs: options.maxRetryWaitMs ?? 20_000,
  };
  const batchSize = checkBatchSize(options.batchSize, 64, 'OpenAI-compatible embedder');
  const [probe] = await embedBatch(settings, ['dimension probe']);
  const dimension = probe?.length ?? 0;
  const checked = (vectors: Float32Array[]) => {
    const wrong = vectors.find((v) => v.length !== dimension);
    if (wrong) throw new SiftError('llm_error', `${settings.where}: "${settings.model}" returned a ${wrong.length}-long vector where ${dimension} was expected; was the model replaced?`);
    return vectors;
  };
  return {
    id: `openai:${options.model}`,
    dimension,
    async embedPassages(texts) {
      const vectors: Float32Array[] = [];
      for (const batch of inBatches(texts, batchSize)) vectors.push(...checked(await embedBatch(settings, batch)));
      return vectors;
    },
    async embedQuery(text) {
      return checked(await embedBatch(settings, [text]))[0] as Float32Array;
    },
    close: async () => undefined,
  };
}

/** One request: the normalised vectors of `input`, in order (the server may answer out of order; `index` says). */
async function embedBatch(settings: Settings, input: string[]): Promise<Float32Array[]> {
  const request = () => settings.client.embeddings.create({ model: settings.model, input, encoding_format: 'float' });
  let answer;
  try {
    answer = await request().catch(async (error: unknown) => {
      const wait = error instanceof OpenAI.APIError && error.status === 429 ? retryAfterMs(error.headers) : null;
      if (wait === null || wait > settings.maxRetryWaitMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
      return request();
    });
  } catch (error) {
    throw explain(settings, error);
  }
  const rows = [...(answer.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  const valid = rows.length === input.length && rows.every((r) => Array.isArray(r) && r.length > 0 && r.every(Number.isFinite));
  if (!valid) throw new SiftError('llm_error', `${settings.where} answered /embeddings for "${settings.model}" without ${input.length} embeddings; is it an embedding model?`);
  return rows.map((row) => normalise(Float32Array.from(row)));
}

function explain(settings: Settings, error: unknown): SiftError {
  const { where, model } = settings;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new SiftError('timeout', `${where} did not answer /embeddings within ${settings.timeoutMs} ms.`);
  if (error instanceof OpenAI.APIConnectionError) return new SiftError('llm_unavailable', `Cannot reach ${where}; check that it is running and its base URL in Settings.`);
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    if (status === 401 || status === 403) return new SiftError('llm_error', `${where}: the API key was refused (HTTP ${status}).`);
    if (status === 429) {
      const wait = retryAfterMs(error.headers);
      return new SiftError('llm_error', `${where} is limiting requests (HTTP 429); ${wait !== null ? `try again in ${Math.ceil(wait / 1000)} s` : 'try again later'}.`);
    }
    if (status === 404) return new SiftError('model_unavailable', `${where} has no embedding model "${model}".`);
    return new SiftError('llm_error', `${where} failed to embed with "${model}" (HTTP ${status}).`);
  }
  return new SiftError('llm_error', redactSecrets(`${where} failed to embed: ${error instanceof Error ? error.message : String(error)}`));
}
