/** Knowledge bases: the list, which one is selected, and creating, renaming and deleting them. */
import { create } from 'zustand';
import type { KnowledgeBase } from '../../../shared/models';
import { client } from '../client';

interface KbState {
  kbs: KnowledgeBase[];
  selectedKbId: string | null;
  /** True once the first list arrived (so empty states do not flash while loading). */
  loaded: boolean;
  /** A failure to show in the main area's error banner, or null. */
  error: string | null;
  load(): Promise<void>;
  select(id: string): void;
  /** Create a knowledge base and select it; returns an error message, or null when it worked. */
  create(name: string): Promise<string | null>;
  /** Rename a knowledge base; returns an error message, or null. */
  rename(id: string, name: string): Promise<string | null>;
  /** Delete a knowledge base (its index file; the folders on disk are untouched); returns an error message, or null. */
  remove(id: string): Promise<string | null>;
  clearError(): void;
}

/** The knowledge-base store. */
export const useKbs = create<KbState>((set, get) => ({
  kbs: [],
  selectedKbId: null,
  loaded: false,
  error: null,

  async load() {
    const result = await client.invoke('kb.list', {});
    if (!result.ok) return set({ error: result.error.message, loaded: true });
    const selected = get().selectedKbId;
    const stillThere = result.value.some((k) => k.id === selected);
    set({ kbs: result.value, loaded: true, selectedKbId: stillThere ? selected : (result.value[0]?.id ?? null) });
  },

  select(id) {
    set({ selectedKbId: id });
  },

  async create(name) {
    const result = await client.invoke('kb.create', { name });
    if (!result.ok) return result.error.message;
    await get().load();
    set({ selectedKbId: result.value.id });
    return null;
  },

  async rename(id, name) {
    const result = await client.invoke('kb.rename', { kb: id, name });
    if (!result.ok) return result.error.message;
    await get().load();
    return null;
  },

  async remove(id) {
    const result = await client.invoke('kb.delete', { kb: id });
    if (!result.ok) return result.error.message;
    if (get().selectedKbId === id) set({ selectedKbId: null });
    await get().load();
    return null;
  },

  clearError() {
    set({ error: null });
  },
}));

/** The selected knowledge base, or null. */
export function useSelectedKb(): KnowledgeBase | null {
  return useKbs((s) => s.kbs.find((k) => k.id === s.selectedKbId) ?? null);
}
