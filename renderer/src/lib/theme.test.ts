import { describe, expect, it } from 'vitest';
import { themeAttribute } from './theme';

describe('themeAttribute', () => {
  it.each([
    ['system', null],
    ['light', 'light'],
    ['dark', 'dark'],
  ] as const)('%s → %s', (theme, expected) => {
    expect(themeAttribute(theme)).toBe(expected);
  });
});
