/**
 * The core's one embedding model, shared by every knowledge base: created on first need from the
 * configuration, kept loaded, and — when it cannot be had — reported as a reason, so indexing goes
 * on keyword-only and search says why instead of failing.
 */
import type { EventBus } from './events';
import type { Embedder } from './embed/embedder';
import { createOllamaEmbedder } from './embed/ollama';
import { createTransformersEmbedder } from './embed/transformers';

/** Which embedding model to use. */
export type EmbeddingConfig =
  | {
      provider: 'transformers';
      /** Default 'Xenova/multilingual-e5-small'. */
      modelId?: string;
      /** A folder that already holds the model files (`<modelId>/…`), checked before the data folder's `models/`. */
      localModelDir?: string;
      /** Download the model on first use when it is not on disk. Default true. */
      allowDownload?: boolean;
    }
  | { provider: 'ollama'; host?: string; model: string }
  | { provider: 'none' };

/** The reason given when the person chose no embedding model (status.ts tells it from a failure by it). */
export const NOT_CONFIGURED = 'no embedding model is configured';

/** After a failure, how long before trying to load the model again, in ms. */
const RETRY_AFTER_MS = 60_000;

/** Lazily creates and keeps the configured embedder; a changed configuration loads the new model. */
export class EmbeddingService {
  private loading: Promise<Embedder | string> | null = null;
  private loadedFor = '';
  private failedAt = 0;

  constructor(
    private readonly config: () => EmbeddingConfig,
    private readonly modelsDir: string,
    private readonly events: EventBus,
  ) {}

  /** The embedder, or the reason there is none (the knowledge base then searches by keywords only). */
  get(): Promise<Embedder | string> {
    const config = this.config();
    const key = JSON.stringify(config);
    if (this.loading && key !== this.loadedFor) {
      const old = this.loading;
      this.loading = null;
      void old.then((e) => (typeof e === 'string' ? undefined : e.close()));
    }
    if (this.loading && this.failedAt && Date.now() - this.failedAt > RETRY_AFTER_MS) this.loading = null;
    if (!this.loading) {
      this.failedAt = 0;
      this.loadedFor = key;
      this.loading = this.load(config);
    }
    return this.loading;
  }

  /** Free the model (stops its worker). */
  async close(): Promise<void> {
    const current = await this.loading;
    this.loading = null;
    if (current && typeof current !== 'string') await current.close();
  }

  private async load(c: EmbeddingConfig): Promise<Embedder | string> {
    if (c.provider === 'none') return NOT_CONFIGURED;
    try {
      if (c.provider === 'ollama') return await createOllamaEmbedder({ host: c.host ?? 'http://127.0.0.1:11434', model: c.model });
      return await createTransformersEmbedder({
        modelId: c.modelId,
        modelsDir: this.modelsDir,
        localModelDir: c.localModelDir,
        allowDownload: c.allowDownload ?? true,
        onProgress: (p) => this.events.emit('model.progress', p),
      });
    } catch (err) {
      this.failedAt = Date.now();
      const reason = err instanceof Error ? err.message : String(err);
      this.events.emit('model.progress', { modelId: c.provider === 'ollama' ? c.model : (c.modelId ?? 'default'), status: 'failed', message: reason });
      return reason;
    }
  }
}

/**
 * The embedding configuration from environment variables (it wins over the settings), or
 * undefined when none is set:
 * `SIFT_EMBEDDING` = `none` | `ollama:<model>` | `transformers` (default); `SIFT_EMBED_MODEL` =
 * a Hugging Face model id; `SIFT_MODEL_DIR` = a local folder holding model files; `OLLAMA_HOST`.
 */
export function embeddingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingConfig | undefined {
  const choice = env.SIFT_EMBEDDING?.trim() ?? '';
  if (!choice && !env.SIFT_EMBED_MODEL && !env.SIFT_MODEL_DIR) return undefined; // the settings decide
  if (choice === 'none') return { provider: 'none' };
  if (choice.startsWith('ollama:')) return { provider: 'ollama', model: choice.slice('ollama:'.length), host: env.OLLAMA_HOST || undefined };
  return { provider: 'transformers', modelId: env.SIFT_EMBED_MODEL || undefined, localModelDir: env.SIFT_MODEL_DIR || undefined };
}
