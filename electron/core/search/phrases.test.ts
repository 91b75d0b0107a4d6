/**
 * Which parts of a query are searched as phrases: quoted parts of two words or more, else the whole
 * query of three words or more; never one of function words only, CJK text or a long question.
 */
import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokenize';
import { PHRASE_TOKENS, queryPhrases } from './phrases';

describe('queryPhrases', () => {
  it('takes a query of three words or more whole, as its index tokens', () => {
    expect(queryPhrases('Invalid read of size 4')).toEqual([['invalid', 'read', 'of', 'size', '4']]);
    expect(queryPhrases('Conditional jump depends on uninitialised value(s)')).toEqual([tokenize('Conditional jump depends on uninitialised value(s)')]);
    expect(queryPhrases('Error: socket hang up')).toEqual([['error', 'socket', 'hang', 'up']]);
    // identifiers as the index holds them: the whole, then its parts
    expect(queryPhrases('TypeError: cannot read')).toEqual([['typeerror', 'type', 'error', 'cannot', 'read']]);
  });

  it('leaves out two words, function words, CJK text and long questions', () => {
    expect(queryPhrases('hang up')).toEqual([]);
    expect(queryPhrases('what is it')).toEqual([]);
    expect(queryPhrases('how do I')).toEqual([]);
    expect(queryPhrases('网关 超时 处理')).toEqual([]);
    expect(queryPhrases('socket 超时 hang up')).toEqual([]);
    const long = Array.from({ length: PHRASE_TOKENS + 1 }, (_, i) => `word${i}`).join(' ');
    expect(queryPhrases(long)).toEqual([]);
    expect(queryPhrases(long.split(' ').slice(0, PHRASE_TOKENS).join(' '))).toHaveLength(1);
  });

  it('takes the quoted parts instead of the whole, in straight or curly quotes', () => {
    expect(queryPhrases('valgrind "invalid write" heap block')).toEqual([['invalid', 'write']]);
    expect(queryPhrases('“hang up” and "connection reset" errors')).toEqual([['hang', 'up'], ['connect', 'reset']]);
    // a quoted word alone, or function words alone, is no phrase: the whole query is taken instead
    expect(queryPhrases('"valgrind" invalid write')).toEqual([['valgrind', 'invalid', 'write']]);
    expect(queryPhrases('"of the" best passage')).toEqual([['of', 'the', 'best', 'passag']]);
  });
});
