import { describe, expect, it } from 'vitest';
import { joinSnapshot, TokenBatcher } from './stream-text';

describe('joinSnapshot', () => {
  it.each([
    ['', 'abc', 'abc'],
    ['abc', '', 'abc'],
    ['abc', 'abcdef', 'abcdef'],
    ['hello wor', 'world!', 'hello world!'],
    ['hello ', 'world', 'hello world'],
  ])('joins %j and %j', (known, heard, joined) => {
    expect(joinSnapshot(known, heard)).toBe(joined);
  });
});

describe('TokenBatcher', () => {
  it('delivers the tokens of one tick together, per key, and flush delivers at once', async () => {
    const batches: [string, string][][] = [];
    const batcher = new TokenBatcher((b) => batches.push([...b]), 20);
    batcher.add('t1', 'a');
    batcher.add('t1', 'b');
    batcher.add('t2', 'x');
    expect(batches).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(batches).toEqual([[['t1', 'ab'], ['t2', 'x']]]);
    batcher.add('t1', 'c');
    batcher.flush();
    expect(batches.at(-1)).toEqual([['t1', 'c']]);
  });
});
