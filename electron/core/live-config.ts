/**
 * What the core's parts read at the moment they need it: the explicit configuration of the host
 * (CLI flags, test options) wins, then the person's settings, then the defaults. Read per use, so
 * a changed setting applies to the next chat turn, search or indexing run without a restart.
 */
import type { EmbeddingConfig } from './embedding';
import type { ChatSettings } from './chat/turn';
import { createLlmClient } from './llm/ollama-client';
import type { LlmClient } from './llm/types';
import type { SettingsStore } from './settings';
import { DEFAULT_ENHANCE_SETTINGS, type EnhanceSettings } from '../../shared/settings';

/** Host-level overrides of chat (CLI flags, tests). */
export interface ChatOverrides extends Partial<ChatSettings> {
  /** Ollama host; wins over the setting. */
  host?: string;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

const MB = 1024 * 1024;
/** A token is rarely longer than this many characters, so a server ignoring `num_predict` is still cut near it. */
const CHARS_PER_TOKEN_CAP = 8;

/** Effective configuration, computed on demand. */
export class LiveConfig {
  private client: { host: string; llm: LlmClient } | null = null;

  constructor(
    private readonly settings: SettingsStore,
    private readonly overrides: { chat?: ChatOverrides; embedding?: EmbeddingConfig; maxFileBytes?: number },
  ) {}

  /** The Ollama client for the host in force (a new client when the host changed). */
  llm(): LlmClient {
    const { host, connectTimeoutMs, idleTimeoutMs } = this.overrides.chat ?? {};
    const wanted = host ?? this.settings.get().ollamaHost;
    if (this.client?.host !== wanted) this.client = { host: wanted, llm: createLlmClient({ host: wanted, connectTimeoutMs, idleTimeoutMs }) };
    return this.client.llm;
  }

  /** Chat settings for the next turn. */
  chat(): ChatSettings {
    const s = this.settings.get();
    const { host: _h, connectTimeoutMs: _c, idleTimeoutMs: _i, ...chat } = this.overrides.chat ?? {};
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
      model: s.model ?? undefined,
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
    return { provider: 'transformers', modelId: e.modelId, localModelDir: e.localModelDir ?? undefined };
  }

  /** Files larger than this are skipped. */
  maxFileBytes(): number {
    return this.overrides.maxFileBytes ?? this.settings.get().maxFileMB * MB;
  }
}

/**
 * An Ollama address as users write it in OLLAMA_HOST (`host`, `host:port` or a URL) turned into a
 * URL, or undefined when unset. Without a scheme, port 11434 unless one is given, as Ollama's own
 * tools assume; a full URL is taken as written.
 */
export function ollamaHostFromEnv(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^https?:\/\//i.test(v)) return new URL(v).origin;
  const url = new URL(`http://${v}`);
  if (!url.port) url.port = '11434';
  return url.origin;
}
