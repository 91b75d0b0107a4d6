/** The renderer's state: knowledge bases and which one is selected. */
import { create } from 'zustand';
import type { KnowledgeBase } from '../../shared/models';
import { client } from './client';

interface AppState {
  kbs: KnowledgeBase[];
  selectedKbId: string | null;
  loaded: boolean;
  error: string | null;
  loadKbs(): Promise<void>;
  selectKb(id: string): void;
  /** Create a knowledge base; returns an error message, or null when it worked. */
  createKb(name: string): Promise<string | null>;
  clearError(): void;
}

export const useApp = create<AppState>((set, get) => ({
  kbs: [],
  selectedKbId: null,
  loaded: false,
  error: null,

  async loadKbs() {
    const result = await client.invoke('kb.list', {});
    if (!result.ok) return set({ error: result.error.message, loaded: true });
    const selected = get().selectedKbId;
    const stillThere = result.value.some((k) => k.id === selected);
    set({ kbs: result.value, loaded: true, selectedKbId: stillThere ? selected : (result.value[0]?.id ?? null) });
  },

  selectKb(id) {
    set({ selectedKbId: id });
  },

  async createKb(name) {
    const result = await client.invoke('kb.create', { name });
    if (!result.ok) return result.error.message;
    await get().loadKbs();
    set({ selectedKbId: result.value.id });
    return null;
  },

  clearError() {
    set({ error: null });
  },
}));

client.subscribe('kb.changed', () => void useApp.getState().loadKbs());
