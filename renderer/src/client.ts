/**
 * The renderer's one client. In Electron the preload script provides `window.sift`; in a browser
 * tab the same contract is reached over the loopback HTTP host. The rest of the UI never knows which.
 */
import { createClient, type SiftClient, type SiftTransport } from '../../shared/client';
import { fail } from '../../shared/errors';
import { createHttpTransport } from '../../shared/http-transport';
import { takeHostToken } from './lib/host-token';

declare global {
  interface Window {
    sift?: SiftTransport;
  }
}

/** The browser tab's host token (null in Electron, or in a tab not opened with Sift's start URL). */
const hostToken: string | null = window.sift
  ? null
  : takeHostToken({ location: window.location, storage: window.sessionStorage, history: window.history });

/**
 * Whether this is a browser tab without the host's token: the app cannot work, and the page the
 * host sent already says how to open Sift, so nothing is mounted over it.
 */
export const lacksHostToken: boolean = !window.sift && hostToken === null;

// Without a token every call would be refused; this answers at once and opens no event stream that
// would retry against the host forever.
const noHost: SiftTransport = {
  invoke: () => Promise.resolve(fail('unauthorized', 'this tab was not opened with the URL Sift printed')),
  subscribe: () => () => undefined,
};

/** The client for this window. */
export const client: SiftClient = createClient(
  window.sift ?? (hostToken === null ? noHost : createHttpTransport({ token: hostToken })),
);

/**
 * Whether offering a native folder picker makes sense: only the desktop host has one (a browser
 * tab gets `{supported: false}` from `app.pickFolder`). The UI still handles that answer.
 */
export const canPickFolders: boolean = window.sift !== undefined;
