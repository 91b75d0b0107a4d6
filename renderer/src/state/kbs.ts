/**
 * Knowledge bases: the list, which one is selected, and creating, renaming and deleting them. The selected one is
 * remembered in this browser's storage, so a reload (or the next start) opens the knowledge base last used.
 */
import { create } from 'zustand';
import type { KnowledgeBase } from '../../../shared/models';
import { nameProblem } from '../../../shared/names';
import { client } from '../client';
import { i18n } from '../i18n';
import { speak } from '../lib/spoken';

/** Why the core would refuse `name` (shared/names.ts), in the UI's language; null when it would not. */
function refusedName(name: string): string | null {
  const problem = nameProblem(name.trim());
  return problem ? speak(i18n.t, { code: problem }) : null;
}

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

/** Where the selected knowledge base's id is remembered. */
const SELECTED_KEY = 'sift.selectedKb';

function remembered(): string | null {
  try {
    return localStorage.getItem(SELECTED_KEY);
  } catch {
    return null; // storage switched off
  }
}

function remember(id: string | null): void {
  try {
    if (id) localStorage.setItem(SELECTED_KEY, id);
    else localStorage.removeItem(SELECTED_KEY);
  } catch {
    // storage switched off: the first knowledge base opens next time
  }
}

/** The knowledge-base store. */
export const useKbs = create<KbState>((set, get) => ({
  kbs: [],
  selectedKbId: remembered(),
  loaded: false,
  error: null,

  async load() {
    const result = await client.invoke('kb.list', {});
    if (!result.ok) return set({ error: result.error.message, loaded: true });
    const selected = get().selectedKbId;
    const stillThere = result.value.some((k) => k.id === selected);
    const chosen = stillThere ? selected : (result.value[0]?.id ?? null);
    // Before the first list (an empty core) nothing is forgotten: the remembered one may just not be listed yet.
    if (result.value.length > 0) remember(chosen);
    set({ kbs: result.value, loaded: true, selectedKbId: chosen });
  },

  select(id) {
    remember(id);
    set({ selectedKbId: id });
  },

  async create(name) {
    const refused = refusedName(name);
    if (refused) return refused;
    const result = await client.invoke('kb.create', { name });
    if (!result.ok) return result.error.message;
    await get().load();
    get().select(result.value.id);
    return null;
  },

  async rename(id, name) {
    const refused = refusedName(name);
    if (refused) return refused;
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
