import { describe, expect, it } from 'vitest';
import { quoteStart } from './quote-window';

// Zod's README as search cut it for "safeParse vs parse": the passage starts in a code block's tail.
const ZOD =
  "  ], message: 'Invalid input: expected number, received string' } ] */\n  }\n}\n```\n\n" +
  'To avoid a `try/catch` block, you can use the `.safeParse()` method to get back a plain result object ' +
  'containing either the successfully parsed data or a `ZodError`. The result type is a discriminated union, ' +
  'so you can handle both cases conveniently.\n\n```ts\nconst result = Player.safeParse({ username: 42 });\n```';

describe('quoteStart', () => {
  it.each([
    ['a passage that fits is quoted whole', 'short text about parse', 'parse', 400, 0],
    ['the first line already holds a word of the question', 'parse throws; safeParse returns.\n' + 'x '.repeat(300), 'safeParse', 40, 0],
    ['no word of the question: from the start', 'a '.repeat(300), 'safeParse', 40, 0],
    ['function words do not count', 'so it is.\nWhat about the gateway? ' + 'x '.repeat(300), 'what is the gateway', 40, 10],
  ])('%s', (_label, text, question, max, start) => {
    expect(quoteStart(text, question, max)).toBe(start);
  });

  it('starts at the sentence that answers, past the tail of a code block', () => {
    const start = quoteStart(ZOD, 'safeParse vs parse', 200);
    expect(ZOD.slice(start).startsWith('To avoid a `try/catch` block')).toBe(true);
  });

  it('starts at a Chinese sentence that holds the word', () => {
    const text = '背景介绍很长。'.repeat(30) + '连接超时后，客户端会重试三次。' + '其他内容。'.repeat(30);
    const start = quoteStart(text, '超时', 60);
    expect(text.slice(start).startsWith('连接超时后')).toBe(true);
  });

  it('keeps the headings that lead to the piece', () => {
    const text = '## Usage\n\n### Basic conversion\n\nTo convert a .docx file to HTML, call convertToHtml. ' + 'x '.repeat(200);
    expect(quoteStart(text, 'docx to html', 60)).toBe(0);
    expect(quoteStart(`Some intro.\n${text}`, 'docx to html', 60)).toBe(text.indexOf('To convert') + 12);
  });

  it('starts at a line inside code when that is where the word is', () => {
    const text = 'intro line\n```js\nconst x = 1;\nschema.safeParse(x);\n```\n' + 'y '.repeat(200);
    expect(quoteStart(text, 'safeParse', 60)).toBe(text.indexOf('schema.safeParse'));
  });
});
