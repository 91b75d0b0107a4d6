import { describe, expect, it } from 'vitest';
import { enhanceOfFlags, parseEnhanceList } from './enhance-flags';

describe('the CLI enhancement flags', () => {
  it.each([
    ['rewrite,multi-query=3,hyde,rerank=llm', { rewrite: true, multiQuery: 3, hyde: true, rerank: 'llm' }],
    ['multi-query', { multiQuery: 3 }],
    ['rerank=cross-encoder', { rerank: 'cross-encoder' }],
    ['none', { rewrite: false, multiQuery: 1, hyde: false, rerank: null }],
  ])('reads --enhance %s', (spec, expected) => {
    expect(parseEnhanceList(spec)).toEqual(expected);
  });

  it.each([
    ['multi-query=0', /from 1 to 8, got 0/],
    ['rerank=bm25', /llm, cross-encoder or none, got bm25/],
    ['hyde,hyde', /names hyde twice/],
    ['hyde=1', /hyde takes no value/],
    ['fancy', /unknown enhancement "fancy"/],
  ])('refuses --enhance %s', (spec, why) => {
    expect(() => parseEnhanceList(spec)).toThrow(why);
  });

  it('reads the search flags, and nothing when none is given', () => {
    expect(enhanceOfFlags({ rewrite: true, 'multi-query': '2', hyde: true, rerank: 'llm' })).toEqual({ rewrite: true, multiQuery: 2, hyde: true, rerank: 'llm' });
    expect(enhanceOfFlags({})).toBeUndefined();
    expect(() => enhanceOfFlags({ 'multi-query': 'x' })).toThrow(/--multi-query must be a whole number/);
  });
});
