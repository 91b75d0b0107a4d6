/** Folders and indexing status per knowledge base, kept live from `kb.changed` and `ingest.progress`. */
import { create } from 'zustand';
import type { Folder, IngestStatus, ModelProgress } from '../../../shared/models';
import { client } from '../client';
import { laterIngest } from '../lib/snapshot-order';

interface IngestState {
  folders: Record<string, Folder[]>;
  status: Record<string, IngestStatus>;
  /** The latest embedding-model download or load, or null when none is going on. */
  model: ModelProgress | null;
  loadFolders(kbId: string): Promise<void>;
  loadStatus(kbId: string): Promise<void>;
  /** Add a folder; returns an error message, or null when it worked (indexing then starts by itself). */
  addFolder(kbId: string, path: string): Promise<string | null>;
  /** Remove a folder (its pages leave the index; the files stay on disk); returns an error message, or null. */
  removeFolder(kbId: string, path: string): Promise<string | null>;
  /** Index the knowledge base again now; returns an error message, or null. */
  reindex(kbId: string): Promise<string | null>;
}

/** The folders-and-indexing store. */
export const useIngest = create<IngestState>((set, get) => ({
  folders: {},
  status: {},
  model: null,

  async loadFolders(kbId) {
    const result = await client.invoke('folder.list', { kb: kbId });
    if (result.ok) set({ folders: { ...get().folders, [kbId]: result.value } });
  },

  async loadStatus(kbId) {
    const result = await client.invoke('ingest.status', { kb: kbId });
    if (result.ok) set((s) => ({ status: { ...s.status, [kbId]: laterIngest(s.status[kbId], result.value) } }));
  },

  async addFolder(kbId, path) {
    const result = await client.invoke('folder.add', { kb: kbId, path });
    if (!result.ok) return result.error.message;
    await get().loadFolders(kbId);
    return null;
  },

  async removeFolder(kbId, path) {
    const result = await client.invoke('folder.remove', { kb: kbId, path });
    if (!result.ok) return result.error.message;
    await get().loadFolders(kbId);
    return null;
  },

  async reindex(kbId) {
    const result = await client.invoke('ingest.start', { kb: kbId });
    if (!result.ok) return result.error.message;
    set((s) => ({ status: { ...s.status, [kbId]: laterIngest(s.status[kbId], result.value) } }));
    return null;
  },
}));

/** True while a run is working (scanning, indexing or embedding). */
export function isIndexing(status: IngestStatus | undefined): boolean {
  return !!status && (status.state === 'scanning' || status.state === 'indexing' || status.state === 'embedding');
}

/** Progress of a run from 0 to 1, or null when the total is not known yet (still scanning). */
export function progressOf(status: IngestStatus): number | null {
  if (status.state === 'done') return 1;
  if (status.state === 'idle' || status.state === 'error') return status.filesTotal ? status.filesDone / status.filesTotal : 0;
  if (status.state === 'embedding' && status.chunks > 0) return status.chunksEmbedded / status.chunks;
  if (status.filesTotal > 0) return Math.min(1, status.filesDone / status.filesTotal);
  return null;
}

client.subscribe('ingest.progress', (status) => {
  useIngest.setState((s) => ({ status: { ...s.status, [status.kbId]: laterIngest(s.status[status.kbId], status) } }));
});
client.subscribe('model.progress', (progress) => {
  useIngest.setState({ model: progress.status === 'ready' ? null : progress });
});
