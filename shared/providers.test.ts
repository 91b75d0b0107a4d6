import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './providers';

describe('isLoopbackUrl', () => {
  it.each([
    ['http://127.0.0.1:1234/v1', true],
    ['http://127.8.9.10/v1', true],
    ['http://localhost:8080/v1', true],
    ['http://[::1]:11434', true],
    ['http://192.168.1.20:8000/v1', false],
    ['https://api.openai.com/v1', false],
    ['http://127.0.0.1.example.com/v1', false],
    ['not a url', false],
  ])('%s is loopback: %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
