/**
 * The browser tab's key to the loopback host. The start URL (`/?token=…`) hands the token to the app's
 * own script, which keeps it in this tab's sessionStorage (per tab and per origin, so a page on another
 * port cannot read it, and a reload still has it) and takes it out of the address bar, history and
 * any later Referer. The token then travels only in the `Authorization` header the transport sets.
 */

/** The sessionStorage key of the token. */
export const TOKEN_KEY = 'sift.hostToken';

/** The parts of a window this needs (a real window in the app; plain objects in tests). */
export interface TokenPlace {
  location: { href: string };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
}

/**
 * The token for this tab, or null when it has none (the tab was not opened with the start URL).
 * A token in the address bar wins over a stored one (the host may have restarted with a new token) and
 * is removed from the address bar, keeping the rest of the URL.
 */
export function takeHostToken(place: TokenPlace): string | null {
  const url = new URL(place.location.href);
  const fromUrl = url.searchParams.get('token');
  if (!fromUrl) return place.storage.getItem(TOKEN_KEY);
  place.storage.setItem(TOKEN_KEY, fromUrl);
  url.searchParams.delete('token');
  place.history.replaceState(place.history.state, '', url.pathname + url.search + url.hash);
  return fromUrl;
}
