/**
 * The core's one embedding model, shared by every knowledge base: created on first need from the
 * configuration, kept loaded, and — when it cannot be had — reported as a reason, so indexing goes
 * on keyword-only and search says why instead of failing.
 */
import path from 'node:path';
import type { EventBus } from '../base/events';
import type { Embedder } from './embedder';
import { createOllamaEmbedder } from './ollama';
import {
  forgetLoadFailure,
  readLoadFailure,
  stillBackingOff,
  writeLoadFailure,
  type BackoffOptions,
  type LoadFailure,
} from './load-failure';
import { createOpenAiEmbedder } from './openai';
import { createTransformersEmbedder, DEFAULT_MODEL_ID, transformersModelOnDisk } from './transformers';

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
      /** Where to download from: the hub or a mirror such as 'https://hf-mirror.com/'. Default the hub. */
      remoteHost?: string;
    }
  | { provider: 'ollama'; host?: string; model: string }
  | {
      provider: 'openai';
      /** Base URL with `/v1`. */
      baseUrl: string;
      model: string;
      /** The key as read from its source (kept in memory only). Null: none. */
      apiKey: string | null;
      /** The provider's name, for messages. */
      name?: string;
      /** Why the provider cannot be used (gone from the list, no key); the load fails with it. */
      problem?: string;
    }
  | { provider: 'none' };

/** The reason given when the person chose no embedding model (status.ts tells it from a failure by it). */
export const NOT_CONFIGURED = 'no embedding model is configured';

/** Where models live, and whether Sift may write there. */
export interface ModelsFolder {
  /** Folder models are looked up in and downloaded to (`<data dir>/models`). */
  dir: string;
  /**
   * Write nothing into `dir`: downloads go here instead and a failed load is remembered in memory only
   * (a throw-away run such as `sift eval` must not write into the person's data folder). Default: none.
   */
  downloadDir?: string;
}

/** Tunables of {@link EmbeddingService}: the backoff after a failed load ({@link BackoffOptions}) and the clock. */
export interface EmbeddingServiceOptions extends BackoffOptions {
  /** The clock, in ms since 1970. Default Date.now (tests pass their own). */
  now?: () => number;
}

/** The file that keeps a transformers.js model's last failed load across runs (each CLI command is a new process). */
const FAILURE_FILE = '.load-failure.json';

/** Lazily creates and keeps the configured embedder; a changed configuration loads the new model. */
export class EmbeddingService {
  private loading: Promise<Embedder | string> | null = null;
  /** The embedder of the current load once it has resolved successfully. */
  private loaded: Embedder | null = null;
  private loadedFor = '';
  private failure: LoadFailure | null = null;
  /** While a background retry runs: the reason callers get meanwhile. */
  private retrying: string | null = null;
  private readonly models: ModelsFolder;
  private readonly now: () => number;

  constructor(
    private readonly config: () => EmbeddingConfig,
    models: string | ModelsFolder,
    private readonly events: EventBus,
    private readonly options: EmbeddingServiceOptions = {},
  ) {
    this.models = typeof models === 'string' ? { dir: models } : models;
    this.now = options.now ?? Date.now;
  }

  /**
   * The embedder, or the reason there is none (the knowledge base then searches by keywords only).
   * After a failed load the reason is returned at once, without a new attempt, until the backoff is
   * over, {@link retry} is called, the configuration changes or the model's files appear on disk.
   * A retry after the backoff runs in the background: calls meanwhile still get the reason at once.
   */
  get(): Promise<Embedder | string> {
    const config = this.config();
    const key = JSON.stringify(config);
    if (this.loading && key !== this.loadedFor) {
      const old = this.loading;
      this.loading = null;
      this.loaded = null;
      this.retrying = null;
      void old.then((e) => (typeof e === 'string' ? undefined : e.close()));
    }
    if (this.loading) return this.retrying !== null ? Promise.resolve(this.retrying) : this.loading;
    const failure = this.rememberedFailure(config, key);
    if (failure && stillBackingOff(failure, this.now(), this.options)) return Promise.resolve(failure.reason);
    this.loadedFor = key;
    const loading = this.load(config, key, failure?.failures ?? 0);
    this.loading = loading;
    this.retrying = failure ? failure.reason : null;
    // A failure is not kept as the current load: the next call decides from the remembered failure.
    void loading.then((got) => {
      if (this.loading !== loading) return;
      this.retrying = null;
      if (typeof got === 'string') this.loading = null;
      else this.loaded = got;
    });
    return failure ? Promise.resolve(failure.reason) : loading;
  }

  /**
   * What {@link get} would give without starting or waiting for a load: the embedder once loaded, the
   * reason when it is already known (no model chosen, a failure still backing off), else null.
   */
  known(): Embedder | string | null {
    const config = this.config();
    const key = JSON.stringify(config);
    if (config.provider === 'none') return NOT_CONFIGURED;
    if (this.loading && key === this.loadedFor) return this.loaded ?? this.retrying;
    const failure = this.rememberedFailure(config, key);
    return failure && stillBackingOff(failure, this.now(), this.options) ? failure.reason : null;
  }

  /**
   * The id the configured model's embedder will have, as far as it is known before loading: whole for
   * Ollama and OpenAI-compatible models; for transformers.js its start (`transformers:<model>:`), since
   * the precision comes from the files found. Null when no model is configured.
   */
  configuredId(): { id: string; exact: boolean } | null {
    const c = this.config();
    if (c.provider === 'none') return null;
    if (c.provider === 'ollama' || c.provider === 'openai') return { id: `${c.provider}:${c.model}`, exact: true };
    return { id: `transformers:${c.modelId ?? DEFAULT_MODEL_ID}:`, exact: false };
  }

  /**
   * Forget a failed load, so the next {@link get} tries again and waits for the attempt (the person
   * re-indexed, changed the settings or asked to try again).
   */
  retry(): void {
    this.failure = null;
    this.retrying = null; // a background retry under way is now waited for
    if (!this.models.downloadDir) forgetLoadFailure(path.join(this.models.dir, FAILURE_FILE));
  }

  /** Resolves once no load is under way (a background retry has succeeded or failed). */
  async settled(): Promise<void> {
    await this.loading;
  }

  /** Free the model (stops its worker). */
  async close(): Promise<void> {
    const current = await this.loading;
    this.loading = null;
    this.loaded = null;
    if (current && typeof current !== 'string') await current.close();
  }

  /** The last failure of this configuration, unless the model's files have since been put on disk. */
  private rememberedFailure(config: EmbeddingConfig, key: string): LoadFailure | null {
    if (this.failure?.key !== key) this.failure = config.provider === 'transformers' ? this.readFailure(key) : null;
    if (!this.failure || config.provider !== 'transformers') return this.failure;
    const onDisk = transformersModelOnDisk({ ...config, modelsDir: this.models.dir });
    return onDisk ? null : this.failure;
  }

  private readFailure(key: string): LoadFailure | null {
    return readLoadFailure(path.join(this.models.dir, FAILURE_FILE), key);
  }

  private remember(config: EmbeddingConfig, failure: LoadFailure): void {
    this.failure = failure;
    if (this.models.downloadDir || config.provider !== 'transformers') return;
    writeLoadFailure(path.join(this.models.dir, FAILURE_FILE), failure);
  }

  private async load(c: EmbeddingConfig, key: string, failuresBefore: number): Promise<Embedder | string> {
    if (c.provider === 'none') return NOT_CONFIGURED;
    try {
      if (c.provider === 'ollama') return await createOllamaEmbedder({ host: c.host ?? 'http://127.0.0.1:11434', model: c.model });
      if (c.provider === 'openai') {
        if (c.problem) throw new Error(c.problem);
        return await createOpenAiEmbedder({ baseUrl: c.baseUrl, apiKey: c.apiKey, model: c.model, name: c.name });
      }
      const embedder = await createTransformersEmbedder({
        modelId: c.modelId,
        modelsDir: this.models.dir,
        downloadDir: this.models.downloadDir,
        localModelDir: c.localModelDir,
        allowDownload: c.allowDownload ?? true,
        remoteHost: c.remoteHost,
        onProgress: (p) => this.events.emit('model.progress', p),
      });
      if (failuresBefore > 0) this.retry();
      return embedder;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.remember(c, { key, reason, failedAt: this.now(), failures: failuresBefore + 1 });
      const modelId = c.provider === 'ollama' || c.provider === 'openai' ? c.model : (c.modelId ?? 'default');
      this.events.emit('model.progress', { modelId, status: 'failed', message: reason });
      return reason;
    }
  }
}

/**
 * The embedding configuration from environment variables (it wins over the settings), or
 * undefined when none is set:
 * `SIFT_EMBEDDING` = `none` | `ollama:<model>` | `openai:<model>` (at `SIFT_BASE_URL`, else `OPENAI_BASE_URL`, key
 * from `SIFT_API_KEY`, else `OPENAI_API_KEY`) | `transformers` (default); `SIFT_EMBED_MODEL` =
 * a Hugging Face model id; `SIFT_MODEL_DIR` = a local folder holding model files; `SIFT_MODEL_HOST` = a hub
 * mirror to download from; `OLLAMA_HOST`.
 */
export function embeddingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingConfig | undefined {
  const choice = env.SIFT_EMBEDDING?.trim() ?? '';
  const anySet = choice || env.SIFT_EMBED_MODEL || env.SIFT_MODEL_DIR || env.SIFT_MODEL_HOST;
  if (!anySet) return undefined; // the settings decide
  if (choice === 'none') return { provider: 'none' };
  if (choice.startsWith('ollama:')) return { provider: 'ollama', model: choice.slice('ollama:'.length), host: env.OLLAMA_HOST || undefined };
  if (choice.startsWith('openai:')) {
    const baseUrl = env.SIFT_BASE_URL || env.OPENAI_BASE_URL;
    const apiKey = env.SIFT_API_KEY || env.OPENAI_API_KEY || null;
    const problem = baseUrl ? undefined : 'SIFT_EMBEDDING=openai:… needs the server\'s base URL in SIFT_BASE_URL (e.g. http://127.0.0.1:1234/v1).';
    return { provider: 'openai', model: choice.slice('openai:'.length), baseUrl: baseUrl ?? '', apiKey, problem };
  }
  return {
    provider: 'transformers',
    modelId: env.SIFT_EMBED_MODEL || undefined,
    localModelDir: env.SIFT_MODEL_DIR || undefined,
    remoteHost: env.SIFT_MODEL_HOST || undefined,
  };
}
