/**
 * The preload script: exposes `window.sift` with exactly one generic `invoke` and one
 * `subscribe`. No raw ipcRenderer crosses into the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc';

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

ipcRenderer.on(IPC_EVENT, (_e: IpcRendererEvent, event: string, payload: unknown) => {
  for (const fn of listeners.get(event) ?? []) fn(payload);
});

contextBridge.exposeInMainWorld('sift', {
  invoke: (op: string, args: unknown) => ipcRenderer.invoke(IPC_INVOKE, op, args),
  subscribe(event: string, listener: Listener) {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  },
});
