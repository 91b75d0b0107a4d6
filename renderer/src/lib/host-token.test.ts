import { describe, expect, it } from 'vitest';
import { takeHostToken, TOKEN_KEY, type TokenPlace } from './host-token';

/** A tab: its address, its sessionStorage and the address `replaceState` left. */
function tab(href: string, stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const place: TokenPlace & { replaced: string | null } = {
    replaced: null,
    location: { href },
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    history: {
      state: { page: 1 },
      replaceState(_state, _unused, url) {
        place.replaced = url;
      },
    },
  };
  return { place, storage };
}

describe('takeHostToken', () => {
  it('keeps the start URL token in the tab and takes it out of the address bar', () => {
    const { place, storage } = tab('http://127.0.0.1:5123/?token=abc');
    expect(takeHostToken(place)).toBe('abc');
    expect(storage.get(TOKEN_KEY)).toBe('abc');
    expect(place.replaced).toBe('/');
  });

  it('keeps the rest of the address', () => {
    const { place } = tab('http://127.0.0.1:5123/x?lang=zh&token=abc#top');
    takeHostToken(place);
    expect(place.replaced).toBe('/x?lang=zh#top');
  });

  it('finds the token again after a reload, without touching the address', () => {
    const { place } = tab('http://127.0.0.1:5123/', { [TOKEN_KEY]: 'abc' });
    expect(takeHostToken(place)).toBe('abc');
    expect(place.replaced).toBeNull();
  });

  it('prefers a new start URL over a stored token (the host restarted)', () => {
    const { place, storage } = tab('http://127.0.0.1:5123/?token=new', { [TOKEN_KEY]: 'old' });
    expect(takeHostToken(place)).toBe('new');
    expect(storage.get(TOKEN_KEY)).toBe('new');
  });

  it('has none in a new tab opened without the start URL', () => {
    expect(takeHostToken(tab('http://127.0.0.1:5123/').place)).toBeNull();
  });
});
