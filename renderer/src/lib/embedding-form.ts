/** The embedding part of the settings form: what a draft means, whether it changes anything, where an error belongs. */
import type { EmbeddingSettings } from '../../../shared/settings';

/** The draft as the person typed it (blank folders and models are plain empty strings). */
export interface EmbeddingDraft {
  provider: EmbeddingSettings['provider'];
  modelId: string;
  localModelDir: string;
  ollamaModel: string;
}

/** The draft for saved settings (null shown as an empty field). */
export function draftOf(saved: EmbeddingSettings): EmbeddingDraft {
  return { provider: saved.provider, modelId: saved.modelId, localModelDir: saved.localModelDir ?? '', ollamaModel: saved.ollamaModel ?? '' };
}

/** The settings a draft asks for: fields trimmed, a blank folder or Ollama model meaning "none" (null). */
export function embeddingOf(draft: EmbeddingDraft): EmbeddingSettings {
  const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
  return { provider: draft.provider, modelId: draft.modelId.trim(), localModelDir: orNull(draft.localModelDir), ollamaModel: orNull(draft.ollamaModel) };
}

/** True when saving the draft would change the saved embedding settings. */
export function embeddingChanged(saved: EmbeddingSettings, draft: EmbeddingDraft): boolean {
  const next = embeddingOf(draft);
  return (Object.keys(next) as (keyof EmbeddingSettings)[]).some((k) => next[k] !== saved[k]);
}

/**
 * The embedding field a core message is about, or null when it names none. The core names the
 * field by its path, e.g. `settings.set: patch.embedding.modelId: must not be empty`.
 */
export function embeddingFieldOf(message: string): keyof EmbeddingSettings | null {
  const m = /\bembedding\.(provider|modelId|localModelDir|ollamaModel)\b/.exec(message);
  return m ? (m[1] as keyof EmbeddingSettings) : null;
}
