/**
 * What the core's parts read at the moment they need it: the explicit configuration of the host
 * (CLI flags, test options) wins, then the person's settings, then the defaults. Read per use, so
 * a changed setting applies to the next chat turn, search or indexing run without a restart.
 */
import { SiftError } from '../../shared/errors';
import type { EmbeddingConfig } from './embed/embedding';
import type { ChatSettings } from './chat/turn';
import { failingClient, providerFor, ProviderClients, type ActiveProvider, type ProviderOverrides } from './llm/providers';
import type { LlmClient } from './llm/types';
import { NO_SECRETS, resolveApiKey, type SecretStore } from './config/secrets';
import type { SettingsStore } from './config/settings';
import { DEFAULT_ENHANCE_SETTINGS, type EnhanceSettings } from '../../shared/settings';

/** Host-level overrides of chat (CLI flags, tests). */
export interface ChatOverrides extends Partial<ChatSettings> {
  /** Ollama host; wins over the setting. */
  host?: string;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** A provider of the settings' list by name, or "ollama" (`sift ask --provider NAME`); wins over the settings. */
  provider?: string;
  /** A provider given whole (`sift ask --base-url URL --model M`); wins over `provider`. */
  custom?: ProviderOverrides['custom'];
}

const MB = 1024 * 1024;
/** A token is rarely longer than this many characters, so a server ignoring `num_predict` is still cut near it. */
const CHARS_PER_TOKEN_CAP = 8;

/** Effective configuration, computed on demand. */
export class LiveConfig {
  private readonly clients: ProviderClients;

  constructor(
    private readonly settings: SettingsStore,
    private readonly overrides: { chat?: ChatOverrides; embedding?: EmbeddingConfig; maxFileBytes?: number },
    readonly secrets: SecretStore = NO_SECRETS,
  ) {
    const { connectTimeoutMs, idleTimeoutMs } = overrides.chat ?? {};
    this.clients = new ProviderClients(secrets, { connectTimeoutMs, idleTimeoutMs });
  }

  /** The provider that answers in knowledge base `kbId` (null: none, the default). Throws SiftError('not_found'). */
  provider(kbId: string | null = null): ActiveProvider {
    const { host, provider, custom } = this.overrides.chat ?? {};
    return providerFor(this.settings.get(), kbId, { host, provider, custom });
  }

  /** The client of the provider in force for `kbId` (a new client when its configuration changed). A provider that
   *  cannot be used (gone from the list, no key) gives a client that says why on every call. */
  llm(kbId: string | null = null): LlmClient {
    let provider: ActiveProvider;
    try {
      provider = this.provider(kbId);
    } catch (error) {
      const s = this.settings.get();
      const name = this.overrides.chat?.provider ?? (kbId ? s.kbProviders[kbId] : undefined) ?? s.defaultProvider ?? '?';
      const unknown = { name, kind: 'openai' as const, baseUrl: 'http://127.0.0.1', apiKeyRef: null, defaultModel: null, builtin: false };
      return failingClient(unknown, error instanceof SiftError ? error : new SiftError('internal', String(error)));
    }
    return this.clients.client(provider);
  }

  /** Chat settings for the next turn in `kbId`: its provider's default model unless the host names one. */
  chat(kbId: string | null = null): ChatSettings {
    const s = this.settings.get();
    const { host: _h, connectTimeoutMs: _c, idleTimeoutMs: _i, provider: _p, custom: _x, ...given } = this.overrides.chat ?? {};
    // An override left unset (`sift ask` without --model) keeps the setting instead of erasing it.
    const chat = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<ChatSettings>;
    let model = s.model ?? undefined;
    try {
      model = this.provider(kbId).defaultModel ?? undefined;
    } catch {
      // the turn's client says what is wrong with the provider
    }
    return {
      searchBudget: s.searchBudget,
      maxRounds: 4,
      maxBadArguments: 2,
      numCtx: 8192,
      contextPercent: s.contextPercent,
      topK: s.topK,
      maxAnswerTokens: s.maxAnswerTokens,
      maxAnswerChars: s.maxAnswerTokens * CHARS_PER_TOKEN_CAP,
      maxTurnMs: s.maxTurnSeconds * 1000,
      model,
      think: s.think ?? undefined,
      ...chat,
    };
  }

  /** Defaults and limits of the search enhancements (issue #15). */
  enhance(): EnhanceSettings {
    return { ...DEFAULT_ENHANCE_SETTINGS, ...this.settings.get().enhance };
  }

  /** The embedding model to use. */
  embedding(): EmbeddingConfig {
    if (this.overrides.embedding) return this.overrides.embedding;
    const e = this.settings.get().embedding;
    if (e.provider === 'none') return { provider: 'none' };
    if (e.provider === 'ollama') return { provider: 'ollama', model: e.ollamaModel ?? 'nomic-embed-text', host: this.settings.get().ollamaHost };
    if (e.provider === 'openai') return this.remoteEmbedding(e.remoteProvider ?? null, e.remoteModel ?? null);
    return { provider: 'transformers', modelId: e.modelId, localModelDir: e.localModelDir ?? undefined };
  }

  /** An OpenAI-compatible provider's embeddings; what is missing becomes the `problem` its load fails with. */
  private remoteEmbedding(name: string | null, model: string | null): EmbeddingConfig {
    const found = this.settings.get().providers.find((p) => p.name === name && p.kind === 'openai');
    const config = { provider: 'openai' as const, baseUrl: found?.baseUrl ?? '', model: model ?? '', apiKey: null, name: name ?? undefined };
    if (!found) return { ...config, problem: `Embeddings: there is no OpenAI-compatible provider "${name ?? ''}" in Settings.` };
    if (!model) return { ...config, problem: `Embeddings: choose the embedding model of ${found.name} in Settings.` };
    try {
      return { ...config, apiKey: resolveApiKey(found.apiKeyRef, found.name, this.secrets) };
    } catch (error) {
      return { ...config, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Files larger than this are skipped. */
  maxFileBytes(): number {
    return this.overrides.maxFileBytes ?? this.settings.get().maxFileMB * MB;
  }
}
