/** The embedding part of the settings form: what a draft means, whether it changes anything, where an error belongs. */
import type { EmbeddingSettings } from '../../../shared/settings';

/** The draft as the person typed it (blank folders and models are plain empty strings). */
export interface EmbeddingDraft {
  provider: EmbeddingSettings['provider'];
  modelId: string;
  localModelDir: string;
  ollamaModel: string;
  /** Provider openai: the OpenAI-compatible provider's name and its embedding model (empty when unset). */
  remoteProvider?: string;
  remoteModel?: string;
}

/** The draft for saved settings (null shown as an empty field). */
export function draftOf(saved: EmbeddingSettings): EmbeddingDraft {
  const draft: EmbeddingDraft = { provider: saved.provider, modelId: saved.modelId, localModelDir: saved.localModelDir ?? '', ollamaModel: saved.ollamaModel ?? '' };
  if (saved.remoteProvider || saved.remoteModel) Object.assign(draft, { remoteProvider: saved.remoteProvider ?? '', remoteModel: saved.remoteModel ?? '' });
  return draft;
}

/** The settings a draft asks for: fields trimmed, a blank folder or Ollama model meaning "none" (null). */
export function embeddingOf(draft: EmbeddingDraft): EmbeddingSettings {
  const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
  const settings: EmbeddingSettings = { provider: draft.provider, modelId: draft.modelId.trim(), localModelDir: orNull(draft.localModelDir), ollamaModel: orNull(draft.ollamaModel) };
  // The OpenAI-compatible fields only when in use, so other providers' settings keep their shape.
  if (draft.remoteProvider !== undefined || draft.remoteModel !== undefined) {
    Object.assign(settings, { remoteProvider: orNull(draft.remoteProvider ?? ''), remoteModel: orNull(draft.remoteModel ?? '') });
  }
  return settings;
}

/** True when saving the draft would change the saved embedding settings. */
export function embeddingChanged(saved: EmbeddingSettings, draft: EmbeddingDraft): boolean {
  const next = embeddingOf(draft);
  return (Object.keys(next) as (keyof EmbeddingSettings)[]).some((k) => (next[k] ?? null) !== (saved[k] ?? null));
}

/**
 * The embedding field a core message is about, or null when it names none. The core names the
 * field by its path, e.g. `settings.set: patch.embedding.modelId: must not be empty`.
 */
export function embeddingFieldOf(message: string): keyof EmbeddingSettings | null {
  const m = /\bembedding\.(provider|modelId|localModelDir|ollamaModel|remoteProvider|remoteModel)\b/.exec(message);
  return m ? (m[1] as keyof EmbeddingSettings) : null;
}
