/** Page-digest status per knowledge base, kept live from `digests.progress`; turning digests on and off, stopping them. */
import { create } from 'zustand';
import type { DigestStatus } from '../../../shared/models';
import { client } from '../client';
import { laterDigest } from '../lib/snapshot-order';
import { useKbs } from './kbs';
import { usePages } from './pages';

interface DigestsState {
  status: Record<string, DigestStatus>;
  load(kbId: string): Promise<void>;
  /** Turn digests on (a run starts) or off; returns an error message, or null. */
  setEnabled(kbId: string, enabled: boolean): Promise<string | null>;
  /** Stop the running digest run; returns an error message, or null. */
  cancel(kbId: string): Promise<string | null>;
}

/** The digests store. */
export const useDigests = create<DigestsState>((set) => ({
  status: {},

  async load(kbId) {
    const result = await client.invoke('digests.status', { kb: kbId });
    if (result.ok) set((s) => ({ status: { ...s.status, [kbId]: laterDigest(s.status[kbId], result.value) } }));
  },

  async setEnabled(kbId, enabled) {
    const result = await client.invoke('digests.setEnabled', { kb: kbId, enabled });
    if (!result.ok) return result.error.message;
    set((s) => ({ status: { ...s.status, [kbId]: laterDigest(s.status[kbId], result.value) } }));
    void useKbs.getState().load();
    return null;
  },

  async cancel(kbId) {
    const result = await client.invoke('digests.cancel', { kb: kbId });
    return result.ok ? null : result.error.message;
  },
}));

client.subscribe('digests.progress', (status) => {
  useDigests.setState((s) => ({ status: { ...s.status, [status.kbId]: laterDigest(s.status[status.kbId], status) } }));
  // A finished run may have written or removed digest pages: the page list and open pages refresh.
  if (status.state !== 'running' && status.generated + status.removed > 0) {
    const { revision } = usePages.getState();
    usePages.setState({ revision: { ...revision, [status.kbId]: (revision[status.kbId] ?? 0) + 1 } });
    void usePages.getState().load(status.kbId);
  }
});
