/** The window's shortcuts: `/` and `?` outside text fields, Ctrl+/ everywhere. */
import { describe, expect, it } from 'vitest';
import { shortcutOf, type KeyPress } from './shortcuts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, inField: false, ...more });

describe('shortcutOf', () => {
  it('focuses the question box with / outside a field and Ctrl+/ or ⌘/ anywhere', () => {
    expect(shortcutOf(press('/'))).toBe('focus-question');
    expect(shortcutOf(press('/', { inField: true }))).toBeNull();
    expect(shortcutOf(press('/', { ctrlKey: true, inField: true }))).toBe('focus-question');
    expect(shortcutOf(press('/', { metaKey: true }))).toBe('focus-question');
  });

  it('shows the shortcuts with ? outside a field only, and leaves other keys alone', () => {
    expect(shortcutOf(press('?'))).toBe('show-shortcuts');
    expect(shortcutOf(press('?', { inField: true }))).toBeNull();
    expect(shortcutOf(press('a'))).toBeNull();
    expect(shortcutOf(press('/', { altKey: true }))).toBeNull();
  });
});
