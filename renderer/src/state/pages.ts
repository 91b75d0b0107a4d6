/** The pages of each knowledge base, and which page is open where (the Pages screen, the chat's reader). */
import { create } from 'zustand';
import type { PageSummary } from '../../../shared/models';
import { client } from '../client';

/** A page to show, optionally at a span to highlight and scroll to. */
export interface PageTarget {
  kbId: string;
  path: string;
  /** `[start, end)` in the page's text (UTF-16 offsets), or null for the page's top. */
  span: { start: number; end: number } | null;
  /** Changes on every request, so asking for the same span again scrolls to it again. */
  nonce: number;
}

interface PagesState {
  pages: Record<string, PageSummary[]>;
  /** The page open on the Pages screen. */
  browsed: PageTarget | null;
  /** The page open beside the chat (a citation's source). */
  reader: PageTarget | null;
  /**
   * Per knowledge base, a number that grows each time an indexing run ends having written or
   * removed pages (e.g. after a watched file changed): open pages re-fetch when it moves.
   */
  revision: Record<string, number>;
  load(kbId: string): Promise<void>;
  /** Open a page on the Pages screen. */
  browse(kbId: string, path: string, span?: { start: number; end: number } | null): void;
  /** Open a page beside the chat, highlighted at `span`. */
  read(kbId: string, path: string, span?: { start: number; end: number } | null): void;
  closeReader(): void;
}

let nonce = 0;

/** The pages store. */
export const usePages = create<PagesState>((set, get) => ({
  pages: {},
  browsed: null,
  reader: null,
  revision: {},

  async load(kbId) {
    const result = await client.invoke('pages.list', { kb: kbId });
    if (result.ok) set({ pages: { ...get().pages, [kbId]: result.value } });
  },

  browse(kbId, path, span = null) {
    set({ browsed: { kbId, path, span, nonce: ++nonce } });
  },

  read(kbId, path, span = null) {
    set({ reader: { kbId, path, span, nonce: ++nonce } });
  },

  closeReader() {
    set({ reader: null });
  },
}));

// Pages appear while a knowledge base indexes: refresh its list when the count moves, at most
// once a second, and always when a run ends.
const lastLoad = new Map<string, { pages: number; at: number }>();
client.subscribe('ingest.progress', (status) => {
  const last = lastLoad.get(status.kbId);
  const ended = status.state === 'done' || status.state === 'error';
  if (!ended && last && (last.pages === status.pages || Date.now() - last.at < 1000)) return;
  lastLoad.set(status.kbId, { pages: status.pages, at: Date.now() });
  // The events name no paths, so every open page of the knowledge base re-fetches (one cheap read).
  if (status.state === 'done' && status.filesIndexed + status.filesRemoved > 0) {
    const { revision } = usePages.getState();
    usePages.setState({ revision: { ...revision, [status.kbId]: (revision[status.kbId] ?? 0) + 1 } });
  }
  if (usePages.getState().pages[status.kbId] || ended) void usePages.getState().load(status.kbId);
});
