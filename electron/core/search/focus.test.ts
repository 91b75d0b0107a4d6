import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokenize';
import { focusOf as focusOfTerms } from './focus';

// Zod's README as search cut it for "safeParse vs parse": the passage starts in a code block's tail.
const ZOD =
  "  ], message: 'Invalid input: expected number, received string' } ] */\n  }\n}\n```\n\n" +
  'To avoid a `try/catch` block, you can use the `.safeParse()` method to get back a plain result object ' +
  'containing either the successfully parsed data or a `ZodError`. The result type is a discriminated union, ' +
  'so you can handle both cases conveniently.\n\n```ts\nconst result = Player.safeParse({ username: 42 });\n```';

/** focusOf with the query's index terms, whole forms and parts (the keyword stage narrows them). */
const focusOf = (text: string, query: string, max?: number): number => focusOfTerms(text, tokenize(query), max);

describe('focusOf', () => {
  it.each([
    ['a passage that fits is quoted whole', 'short text about parse', 'parse', 400, 0],
    ['the first line already holds a word of the question', 'parse throws; safeParse returns.\n' + 'x '.repeat(300), 'safeParse', 40, 0],
    ['no word of the question: from the start', 'a '.repeat(300), 'safeParse', 40, 0],
    ['function words do not count', 'so it is.\nWhat about the gateway? ' + 'x '.repeat(300), 'what is the gateway', 40, 10],
  ])('%s', (_label, text, question, max, start) => {
    expect(focusOf(text, question, max)).toBe(start);
  });

  it('starts at the sentence that answers, past the tail of a code block', () => {
    const start = focusOf(ZOD, 'safeParse vs parse', 200);
    expect(ZOD.slice(start).startsWith('To avoid a `try/catch` block')).toBe(true);
  });

  it('starts at a Chinese sentence that holds the word', () => {
    const text = '背景介绍很长。'.repeat(30) + '连接超时后，客户端会重试三次。' + '其他内容。'.repeat(30);
    const start = focusOf(text, '超时', 60);
    expect(text.slice(start).startsWith('连接超时后')).toBe(true);
  });

  it('keeps the headings that lead to the piece', () => {
    const text = '## Usage\n\n### Basic conversion\n\nTo convert a .docx file to HTML, call convertToHtml. ' + 'x '.repeat(200);
    expect(focusOf(text, 'docx to html', 60)).toBe(0);
    expect(focusOf(`Some intro.\n${text}`, 'docx to html', 60)).toBe(text.indexOf('To convert') + 12);
  });

  it('keeps the heading and the opening fence of the code that holds the word', () => {
    const text = '## Use\n\n```js\nimport {parseEntities} from "parse-entities"\n' + 'x\n'.repeat(20) + '```';
    expect(focusOf(text, 'parseEntities', 60)).toBe(0);
  });

  it('starts at a line inside code when that is where the word is', () => {
    const text = 'intro line\n```js\nconst x = 1;\nschema.safeParse(x);\n```\n' + 'y '.repeat(200);
    expect(focusOf(text, 'safeParse', 60)).toBe(text.indexOf('schema.safeParse'));
  });
});

describe('focusOf on short passages of many lines', () => {
  it('moves past a code tail of more lines than a preview shows, though the text is short', () => {
    const text = '  a: 1,\n  b: 2,\n  c: 3,\n}\n```\n\nCall safeParse to get a result object.';
    expect(focusOf(text, 'safeParse')).toBe(text.indexOf('Call safeParse'));
    expect(focusOf('one line\nCall safeParse.', 'safeParse')).toBe(0);
  });
});
