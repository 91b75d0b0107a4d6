/** Where the arrow keys, Home and End move inside a roving group. */
import { describe, expect, it } from 'vitest';
import { rovingTarget } from './roving';

describe('rovingTarget', () => {
  it.each([
    ['ArrowRight', 0, 3, 1],
    ['ArrowDown', 2, 3, 0],
    ['ArrowLeft', 0, 3, 2],
    ['ArrowUp', 1, 3, 0],
    ['Home', 2, 3, 0],
    ['End', 0, 3, 2],
    ['Tab', 0, 3, null],
    ['ArrowRight', 0, 0, null],
  ] as const)('%s from %i of %i goes to %s', (key, at, count, to) => {
    expect(rovingTarget(key, at, count)).toBe(to);
  });
});
