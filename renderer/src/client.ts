/**
 * The renderer's one client. In Electron the preload script provides `window.sift`; in a browser
 * tab the same contract is reached over the loopback HTTP host. The rest of the UI never knows which.
 */
import { createClient, type SiftClient, type SiftTransport } from '../../shared/client';
import { createHttpTransport } from '../../shared/http-transport';

declare global {
  interface Window {
    sift?: SiftTransport;
  }
}

/** The client for this window. */
export const client: SiftClient = createClient(window.sift ?? createHttpTransport());

/**
 * Whether offering a native folder picker makes sense: only the desktop host has one (a browser
 * tab gets `{supported: false}` from `app.pickFolder`). The UI still handles that answer.
 */
export const canPickFolders: boolean = window.sift !== undefined;
