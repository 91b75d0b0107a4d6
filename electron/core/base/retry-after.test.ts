import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, 10_000],
    [{}, null],
  ])('reads retry-after %j as %s ms', (headers, expected) => {
    expect(retryAfterMs(new Headers(headers), Date.parse('2026-01-01T00:00:00Z'))).toBe(expected);
  });
});
