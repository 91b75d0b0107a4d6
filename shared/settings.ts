/**
 * The person's settings, validated by the contract: each field with its default and allowed range.
 * Only what the person changed is stored; defaults fill in the rest when read.
 */
import { z } from 'zod';

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
  provider: z.enum(['transformers', 'ollama', 'none']),
  /** transformers.js model id. Default Xenova/multilingual-e5-small. */
  modelId: z.string().trim().min(1, 'must not be empty'),
  /** A local folder holding model files (works offline); null to download into the data folder. */
  localModelDir: z.string().trim().min(1).nullable(),
  /** Ollama embedding model (provider ollama), e.g. nomic-embed-text or bge-m3. */
  ollamaModel: z.string().trim().min(1).nullable(),
});
export type EmbeddingSettings = z.infer<typeof EmbeddingSettings>;

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
  /** Search enhancements: defaults and limits. Default {@link DEFAULT_ENHANCE_SETTINGS}. */
  enhance: EnhanceSettings.optional(),
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
  enhance: DEFAULT_ENHANCE_SETTINGS,
};
