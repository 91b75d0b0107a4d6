/**
 * A long passage is shown from its words on the query (`focus`), and when that is inside a code block of
 * a Markdown page it says so (`openFence`), in search results and in the references of an answer, so a
 * client shows code as code and prose as prose (Zod's README: a passage began in the tail of an example;
 * the quote under the answer showed that tail, and the explanation after it in monospace).
 */
import { describe, expect, it } from 'vitest';
import { referencesOf } from './answer-check';
import { keywordKbForTests } from '../search/testing/test-kb';

const example = Array.from({ length: 40 }, (_, n) => `  const field${n} = schema.shape.field${n}; // checked`).join('\n');

const FILES = {
  'zod.md': [
    '# Zod',
    '',
    '## Handling errors',
    '',
    '```ts',
    example,
    '```',
    '',
    'To avoid a try/catch block, use the safeParse method to get back a plain result object.',
    '',
  ].join('\n'),
  'plain.txt': `${'```'}\n${example}\n${'```'}\n\nTo avoid a try/catch block in text files, use safeParse too.\n`,
};

const { keyword } = keywordKbForTests('code', FILES);


describe('passages that start inside a code block', () => {
  it('are shown from the words on the query: the prose after the block, or the line of code', async () => {
    const prose = await keyword('safeParse plain result object');
    const zod = prose.passages.find((p) => p.pagePath === 'wiki/zod.md')!;
    expect(zod.text).toContain('To avoid a try/catch block');
    expect(zod.text.startsWith('```')).toBe(false);
    expect(zod.text.slice(zod.focus).startsWith('To avoid a try/catch block')).toBe(true);
    expect(zod.openFence).toBeUndefined();

    const code = await keyword('field37');
    const line = code.passages.find((p) => p.pagePath === 'wiki/zod.md')!;
    expect(line.text.slice(line.focus ?? 0)).toMatch(/^const field37 = /);
    expect(line.openFence).toBe('```');
    const [reference] = referencesOf([{ number: 1, valid: true, markerStart: 0, markerEnd: 3, quote: null, quoteVerified: null }], [line]);
    expect(reference).toMatchObject({ quote: line.text, focus: line.focus, openFence: '```' });
  });

  it('name none outside Markdown pages, or when they start outside code', async () => {
    const result = await keyword('safeParse text files');
    const plain = result.passages.find((p) => p.pagePath === 'wiki/plain.txt')!;
    expect(plain).toBeDefined();
    expect(plain.openFence).toBeUndefined();
    const headed = await keyword('handling errors');
    expect(headed.passages[0]!.text.startsWith('# Zod\n\n## Handling errors')).toBe(true);
    expect(headed.passages[0]!.openFence).toBeUndefined();
  });
});
