/** Whether Ollama answers, refreshed every so often and after every chat turn. */
import { create } from 'zustand';
import type { LlmStatus } from '../../../shared/chat-models';
import { client } from '../client';

interface LlmState {
  /** The last answer of `llm.status`, or null before the first. */
  status: LlmStatus | null;
  /** Why `llm.status` itself failed (the operation is missing or the core is unreachable), or null. */
  error: string | null;
  checking: boolean;
  refresh(): Promise<void>;
}

/** How often the Ollama connection is checked in the background, in ms. */
export const LLM_POLL_MS = 15_000;

/** The Ollama-status store. */
export const useLlm = create<LlmState>((set, get) => ({
  status: null,
  error: null,
  checking: false,

  async refresh() {
    if (get().checking) return;
    set({ checking: true });
    const result = await client.invoke('llm.status', {});
    set(result.ok ? { status: result.value, error: null, checking: false } : { error: result.error.message, checking: false });
  },
}));
