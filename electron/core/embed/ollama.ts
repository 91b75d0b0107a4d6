/**
 * The alternative embedder: a model served by Ollama (`POST /api/embed`). Plain `fetch` with a time
 * limit per call, so a stalled server fails with 'timeout' instead of hanging an index run.
 */
import { SiftError } from '../../../shared/errors';
import { checkBatchSize, inBatches, normalise, type Embedder } from './embedder';

/** Options for {@link createOllamaEmbedder}. */
export interface OllamaEmbedOptions {
  /** Ollama's address. Default 'http://127.0.0.1:11434'. */
  host?: string;
  /** An embedding model pulled into Ollama, e.g. 'nomic-embed-text'. Required. */
  model: string;
  /** Texts per request. Default 32 (1–256). */
  batchSize?: number;
  /** Time limit per request in ms. Default 60000 (a cold model can take several seconds to load). */
  timeoutMs?: number;
  /** Put before each passage. Default '' (set e.g. 'search_document: ' for nomic-embed-text). */
  passagePrefix?: string;
  /** Put before each query. Default '' (set e.g. 'search_query: ' for nomic-embed-text). */
  queryPrefix?: string;
}

/** Ollama's default address. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

interface Settings {
  url: string;
  host: string;
  model: string;
  timeoutMs: number;
}

function embedUrl(host: string): string {
  let url: URL | null = null;
  try {
    url = new URL(host.trim());
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SiftError('invalid_argument', `Ollama address "${host}" is not an http(s) URL; use e.g. ${DEFAULT_OLLAMA_HOST}.`);
  }
  return `${url.href.replace(/\/+$/, '')}/api/embed`;
}

/** The `error` field of an Ollama error body, or the raw text when it is not JSON. */
function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: use the text itself
  }
  return body.trim().slice(0, 300) || '(empty body)';
}

async function post(settings: Settings, input: string[]): Promise<Response> {
  try {
    return await fetch(settings.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: settings.model, input }),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new SiftError('timeout', `Ollama at ${settings.host} did not answer /api/embed within ${settings.timeoutMs} ms; check that it is not overloaded, or raise the time limit.`);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new SiftError('llm_unavailable', `Ollama is not reachable at ${settings.host} (${cause}); start it with \`ollama serve\`.`);
  }
}

function checkReply(settings: Settings, value: unknown, count: number): number[][] {
  const embeddings = (value as { embeddings?: unknown } | null)?.embeddings;
  const valid =
    Array.isArray(embeddings) &&
    embeddings.length === count &&
    embeddings.every((row) => Array.isArray(row) && row.length > 0 && row.every((x) => typeof x === 'number' && Number.isFinite(x)));
  if (!valid) {
    throw new SiftError('llm_error', `Ollama at ${settings.host} answered /api/embed for "${settings.model}" without ${count} embeddings; is it an embedding model?`);
  }
  return embeddings as number[][];
}

/** One `/api/embed` call: the normalised vectors of `input`, in order. */
async function embedBatch(settings: Settings, input: string[]): Promise<Float32Array[]> {
  const response = await post(settings, input);
  const body = await response.text();
  if (!response.ok) {
    const reason = errorText(body);
    if (response.status === 404 || /not found/i.test(reason)) {
      throw new SiftError('model_unavailable', `Ollama at ${settings.host} has no model "${settings.model}" (${reason}); run \`ollama pull ${settings.model}\`.`);
    }
    throw new SiftError('llm_error', `Ollama at ${settings.host} failed to embed with "${settings.model}" (HTTP ${response.status}: ${reason}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new SiftError('llm_error', `Ollama at ${settings.host} answered /api/embed with something that is not JSON.`);
  }
  return checkReply(settings, parsed, input.length).map((row) => normalise(Float32Array.from(row)));
}

function checkVectors(settings: Settings, vectors: Float32Array[], dimension: number): Float32Array[] {
  const wrong = vectors.find((v) => v.length !== dimension);
  if (wrong) {
    throw new SiftError('llm_error', `Ollama model "${settings.model}" returned a ${wrong.length}-long vector where ${dimension} was expected; was the model replaced?`);
  }
  return vectors;
}

/**
 * An Embedder backed by Ollama's `/api/embed`. Probes the dimension with one call, so it throws at
 * once — SiftError('llm_unavailable') when Ollama is not reachable, ('model_unavailable') when the
 * model is not pulled, ('timeout') when it does not answer in time, ('llm_error') for other failures.
 */
export async function createOllamaEmbedder(options: OllamaEmbedOptions): Promise<Embedder> {
  const host = options.host ?? DEFAULT_OLLAMA_HOST;
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new SiftError('invalid_argument', `Ollama embedder: timeoutMs must be a positive number of ms, got ${timeoutMs}.`);
  }
  if (!options.model.trim()) throw new SiftError('invalid_argument', 'Ollama embedder: the model name is empty; pick a model such as nomic-embed-text.');
  const settings: Settings = { url: embedUrl(host), host, model: options.model, timeoutMs };
  const batchSize = checkBatchSize(options.batchSize, 32, 'Ollama embedder');
  const passagePrefix = options.passagePrefix ?? '';
  const queryPrefix = options.queryPrefix ?? '';
  const [probe] = await embedBatch(settings, [`${queryPrefix}dimension probe`]);
  const dimension = probe?.length ?? 0;

  return {
    id: `ollama:${options.model}`,
    dimension,
    async embedPassages(texts) {
      const vectors: Float32Array[] = [];
      // One request at a time: Ollama serialises them anyway, and a failure stops the rest.
      for (const batch of inBatches(texts, batchSize)) {
        vectors.push(...checkVectors(settings, await embedBatch(settings, batch.map((t) => passagePrefix + t)), dimension));
      }
      return vectors;
    },
    async embedQuery(text) {
      const [vector] = checkVectors(settings, await embedBatch(settings, [queryPrefix + text]), dimension);
      return vector as Float32Array;
    },
    close: async () => undefined,
  };
}
