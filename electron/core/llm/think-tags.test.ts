/** The `<think>` splitter: blocks cut across pieces, and the orphan `</think>` of templates that open the tag. */
import { describe, expect, it } from 'vitest';
import { ThinkSplitter } from './think-tags';
import type { LlmChunk } from './types';

function split(pieces: string[]): LlmChunk[] {
  const splitter = new ThinkSplitter();
  return [...pieces.flatMap((p) => [...splitter.push(p)]), ...splitter.flush()];
}

function textOf(chunks: LlmChunk[], type: 'token' | 'thinking'): string {
  return chunks.map((c) => (c.type === type ? c.text : '')).join('');
}

/** The answer as a receiver keeps it: tokens appended, characters taken back removed. */
function answerOf(chunks: LlmChunk[]): string {
  let answer = '';
  for (const c of chunks) {
    if (c.type === 'token') answer += c.text;
    if (c.type === 'thinking' && c.takesBack) answer = answer.slice(0, answer.length - c.takesBack);
  }
  return answer;
}

describe('ThinkSplitter', () => {
  it('an orphan </think> (the prompt opened the tag) makes what streamed before it reasoning, cut or whole', () => {
    for (const pieces of [
      ['The user asks about ', 'timeouts.', '</think>', 'The timeout is 30 s [1].'],
      ['The user asks about timeouts.</th', 'ink>\n\nThe timeout is 30 s [1].'],
      ['The user asks about timeouts.</think>The timeout is 30 s [1].'],
    ]) {
      const chunks = split(pieces);
      expect(answerOf(chunks).trim()).toBe('The timeout is 30 s [1].');
      expect(answerOf(chunks)).not.toContain('</think>');
      expect(textOf(chunks, 'thinking')).toBe('The user asks about timeouts.');
    }
  });

  it('takes back exactly the answer text given before the orphan tag', () => {
    const chunks = split(['Plan: ', 'cite [1].', '</think>', 'Answer.']);
    const back = chunks.find((c) => c.type === 'thinking');
    expect(back).toEqual({ type: 'thinking', text: 'Plan: cite [1].', takesBack: 'Plan: cite [1].'.length });
  });

  it('a stray </think> after a whole block is dropped, never shown as answer text', () => {
    const chunks = split(['<think>plan</think>Answer ', '</think>', 'ends.']);
    expect(answerOf(chunks)).toBe('Answer ends.');
    expect(textOf(chunks, 'thinking')).toBe('plan');
  });

  it('an answer without tags streams as it comes, nothing taken back', () => {
    const chunks = split(['No ', 'tags here, ', 'a < b.']);
    expect(answerOf(chunks)).toBe('No tags here, a < b.');
    expect(chunks.some((c) => c.type === 'thinking')).toBe(false);
  });
});
