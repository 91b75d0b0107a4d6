import { describe, expect, it } from 'vitest';
import { BLOCKS_PER_PART, cutAnswer } from './answer-blocks';

const join = (p: ReturnType<typeof cutAnswer>) => p.stable.map((s) => s.text).join('') + p.tail.text;

describe('cutAnswer', () => {
  it('keeps the unfinished block live and the complete ones stable, covering the text exactly', () => {
    const text = 'First para [1].\n\nSecond\nline.\n\nStill writ';
    const parts = cutAnswer(text);
    expect(join(parts)).toBe(text);
    expect(parts.stable).toEqual([
      { start: 0, text: 'First para [1].\n\n' },
      { start: 17, text: 'Second\nline.\n\n' },
    ]);
    expect(parts.tail).toEqual({ start: 31, text: 'Still writ' });
  });

  it('never cuts inside a code fence', () => {
    const text = 'Intro\n\n```\ncode\n\nmore code\n```\n\nAfter\n\nend';
    const parts = cutAnswer(text);
    expect(join(parts)).toBe(text);
    expect(parts.tail.text).toBe('end');
    const open = cutAnswer('Intro\n\n```\ncode\n\nmore');
    expect(open.tail.text).toBe('```\ncode\n\nmore');
  });

  it('groups blocks into parts and, streaming, reuses the earlier cut with the same result', () => {
    const blocks = Array.from({ length: BLOCKS_PER_PART * 2 + 5 }, (_, i) => `Block ${i}.\n\n`);
    const text = blocks.join('') + 'tail';
    const whole = cutAnswer(text);
    expect(whole.stable).toHaveLength(2 + 5);
    expect(whole.loose).toBe(5);
    expect(whole.stable[1]!.start).toBe(blocks.slice(0, BLOCKS_PER_PART).join('').length);
    let parts = cutAnswer('');
    for (let at = 7; at < text.length; at += 7) parts = cutAnswer(text.slice(0, at), parts);
    parts = cutAnswer(text, parts);
    expect(parts).toEqual(whole);
  });
});
