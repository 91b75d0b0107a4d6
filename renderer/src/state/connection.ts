/**
 * The connection to the host. When it is lost (the host process went away), turns in progress can no
 * longer be heard, so they stop showing as answering; when it is back, the open conversations are
 * reloaded, which picks up answers stored meanwhile and turns still running.
 */
import { create } from 'zustand';
import { client } from '../client';
import { useChat } from './chat';

interface ConnectionState {
  /** False while the host cannot be reached. */
  connected: boolean;
}

/** The connection store. */
export const useConnection = create<ConnectionState>(() => ({ connected: true }));

client.onConnection((connected) => {
  const was = useConnection.getState().connected;
  useConnection.setState({ connected });
  if (!connected) useChat.getState().interrupt();
  else if (!was) void useChat.getState().reload();
});
