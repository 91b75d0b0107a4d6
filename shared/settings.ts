/**
 * The person's settings, validated by the contract: each field with its default and allowed range.
 * Only what the person changed is stored; defaults fill in the rest when read.
 */
import { z } from 'zod';
import { nameSchema } from './names';

const httpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL such as http://127.0.0.1:11434');

/** Which embedding model indexes knowledge bases. */
export const EmbeddingSettings = z.object({
  provider: z.enum(['transformers', 'ollama', 'none', 'openai']),
  /** transformers.js model id. Default Xenova/multilingual-e5-small. */
  modelId: z.string().trim().min(1, 'must not be empty'),
  /** A local folder holding model files (works offline); null to download into the data folder. */
  localModelDir: z.string().trim().min(1).nullable(),
  /** Ollama embedding model (provider ollama), e.g. nomic-embed-text or bge-m3. */
  ollamaModel: z.string().trim().min(1).nullable(),
  /** Provider openai: the name of an OpenAI-compatible provider of the list. */
  remoteProvider: z.string().trim().min(1).nullable().optional(),
  /** Provider openai: its embedding model, e.g. text-embedding-3-small. */
  remoteModel: z.string().trim().min(1).nullable().optional(),
});
export type EmbeddingSettings = z.infer<typeof EmbeddingSettings>;

/** The name of the built-in provider: Ollama at `ollamaHost`. A provider of the list may not take it. */
export const BUILTIN_PROVIDER = 'ollama';

/**
 * Where a provider's API key comes from; never the key itself (this shape cannot hold one):
 * `stored` — encrypted by the desktop app (Electron safeStorage) in the data folder;
 * `env` — the environment variable SIFT_API_KEY, else OPENAI_API_KEY; `env:NAME` — that variable;
 * `file:/path` — a file readable only by its owner (mode 0600; wider modes are refused).
 */
export const ApiKeyRef = z
  .string()
  .trim()
  .regex(/^(stored|env(:[A-Za-z_][A-Za-z0-9_]*)?|file:.+)$/, 'must be stored, env, env:NAME or file:/path (never the key itself)');
export type ApiKeyRef = z.infer<typeof ApiKeyRef>;

/** A model server besides the built-in Ollama: another Ollama, or any OpenAI-compatible server. */
export const ProviderSettings = z.object({
  /** How the person calls it; unique, 1–60 characters; used by `sift ask --provider NAME`. */
  name: nameSchema({ empty: 'must not be empty', tooLong: 'must be at most 60 characters' }, 60)
    .refine((v) => v.toLowerCase() !== BUILTIN_PROVIDER, `"${BUILTIN_PROVIDER}" is the built-in provider's name`),
  kind: z.enum(['ollama', 'openai']),
  /** The server's address: for openai its base URL with `/v1` (e.g. http://127.0.0.1:1234/v1). */
  baseUrl: httpUrl,
  /** Where its API key comes from; null: none (local servers). */
  apiKeyRef: ApiKeyRef.nullable(),
  /** Chat model of this provider; null: the first it lists. */
  defaultModel: z.string().trim().min(1).nullable(),
  /** Context window in tokens when the server does not report one; null: unknown. (512–10,000,000) */
  contextLength: z.number().int().min(512).max(10_000_000).nullable().optional(),
  /**
   * How long to wait for the server to start answering each request (its response headers), ms; a server that loads
   * the model on its first request can take minutes. Null or absent: 10,000. (1,000–600,000)
   */
  connectTimeoutMs: z
    .number()
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1 second')
    .max(600_000, 'must be at most 10 minutes')
    .nullable()
    .optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;
/** Defaults and limits of the LLM enhancements of search (issue #15). */
export const EnhanceSettings = z.object({
  /** Rewrite a follow-up into a standalone query before the automatic search. Default true. */
  rewrite: z.boolean(),
  /** Queries per search by default, the original included. Default 1 (1–8). */
  multiQuery: z.number().int('must be a whole number').min(1, 'must be at least 1').max(8, 'must be at most 8'),
  /** Embed a hypothetical passage as one more vector probe by default. Default false. */
  hyde: z.boolean(),
  /** Rerank by default with this provider; null for none. Default null. */
  rerank: z.enum(['llm', 'cross-encoder']).nullable(),
  /** The most queries anyone may ask for (clamps the depth, tool arguments and CLI flags). Default 4 (1–8). */
  maxMultiQuery: z.number().int('must be a whole number').min(1, 'must be at least 1').max(8, 'must be at most 8'),
  /** HyDE allowed at all. Default true. */
  allowHyde: z.boolean(),
  /** Rerank allowed at all: false is a kill switch whatever is asked. Default true. */
  allowRerank: z.boolean(),
});
export type EnhanceSettings = z.infer<typeof EnhanceSettings>;

/** The enhancement settings when the person changed none. */
export const DEFAULT_ENHANCE_SETTINGS: EnhanceSettings = {
  rewrite: true, multiQuery: 1, hyde: false, rerank: null, maxMultiQuery: 4, allowHyde: true, allowRerank: true,
};

/** Every setting. */
export const Settings = z.object({
  /** Ollama server. Default http://127.0.0.1:11434. */
  ollamaHost: httpUrl,
  /** Chat model; null = the first installed. */
  model: z.string().trim().min(1).nullable(),
  /** Reasoning on/off; null = the model's own default. */
  think: z.boolean().nullable(),
  embedding: EmbeddingSettings,
  /** Cross-encoder reranker model: a transformers.js id of a sequence-classification model with ONNX weights,
   *  downloaded on first use into the embedding model's folder. Absent = Xenova/bge-reranker-base. */
  rerankModelId: z.string().trim().min(1, 'must not be empty').optional(),
  /** Share of the model's context window for retrieved passages, percent. Default 20 (5–60). */
  contextPercent: z.number().int('must be a whole number').min(5, 'must be at least 5').max(60, 'must be at most 60'),
  /** Searches per chat turn, the automatic one included. Default 3 (1–10). */
  searchBudget: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10, 'must be at most 10'),
  /** Passages the automatic search retrieves. Default 8 (1–50). */
  topK: z.number().int('must be a whole number').min(1, 'must be at least 1').max(50, 'must be at most 50'),
  /** Files larger than this are skipped, in MB. Default 50 (1–2048). */
  maxFileMB: z.number().int('must be a whole number').min(1, 'must be at least 1').max(2048, 'must be at most 2048'),
  /** Longest answer per model round, in tokens, sent to Ollama as `num_predict`; the answer text is also cut at
   *  8 characters per token in case a server ignores it. Default 8192 (256–65536). */
  maxAnswerTokens: z
    .number()
    .int('must be a whole number')
    .min(256, 'must be at least 256')
    .max(65536, 'must be at most 65536'),
  /** Longest a chat turn may run, in seconds, before it is stopped with its partial answer kept.
   *  Default 300 (10–3600). */
  maxTurnSeconds: z
    .number()
    .int('must be a whole number')
    .min(10, 'must be at least 10')
    .max(3600, 'must be at most 3600'),
  /** UI language. Default: follow the system. */
  language: z.enum(['system', 'en', 'zh-CN']),
  /** UI theme. Default: follow the system. */
  theme: z.enum(['system', 'light', 'dark']),
  /** Model servers besides the built-in Ollama (at most 20, names unique). Default none. */
  providers: z
    .array(ProviderSettings)
    .max(20, 'at most 20 providers')
    .refine((list) => new Set(list.map((p) => p.name.toLowerCase())).size === list.length, 'provider names must be unique'),
  /** The provider chat turns use; null: the built-in Ollama. Must name a provider of the list. */
  defaultProvider: z.string().trim().min(1).nullable(),
  /** Per knowledge base (id → provider name, or "ollama" for the built-in one): overrides `defaultProvider`. */
  kbProviders: z.record(z.string(), z.string().trim().min(1)),
  /** Knowledge bases whose person has been told that their passages go to a hosted (non-loopback) provider. */
  hostedNoticeSeen: z.array(z.string()),
  /** Search enhancements: defaults and limits. Default {@link DEFAULT_ENHANCE_SETTINGS}. */
  enhance: EnhanceSettings.optional(),
  /** Read images and PDF pages without a text layer with OCR (on this machine; about 1–2 s a page). Off: images
   *  are listed as skipped, "OCR is off". Absent = true. */
  ocr: z.boolean().optional(),
});
export type Settings = z.infer<typeof Settings>;

/** A change to some settings (the embedding block may be changed in part). */
export const SettingsPatch = Settings.extend({ embedding: EmbeddingSettings.partial() }).partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/** The defaults. */
export const DEFAULT_SETTINGS: Settings = {
  ollamaHost: 'http://127.0.0.1:11434',
  model: null,
  think: null,
  embedding: { provider: 'transformers', modelId: 'Xenova/multilingual-e5-small', localModelDir: null, ollamaModel: null },
  contextPercent: 20,
  searchBudget: 3,
  topK: 8,
  maxFileMB: 50,
  maxAnswerTokens: 8192,
  maxTurnSeconds: 300,
  language: 'system',
  theme: 'system',
  providers: [],
  defaultProvider: null,
  kbProviders: {},
  hostedNoticeSeen: [],
  enhance: DEFAULT_ENHANCE_SETTINGS,
  ocr: true,
};
