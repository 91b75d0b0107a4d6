import { describe, expect, it } from 'vitest';
import { closeOpenFences, fenceAt, fenceMapOf, findAttributedQuotes, parseCitationMarkers, quoteMatches } from './citations';

describe('parseCitationMarkers', () => {
  // [name, text, expected markers as [raw, numbers]]
  const rows: [string, string, [string, number[]][]][] = [
    ['ASCII brackets', 'Restart the gateway [1].', [['[1]', [1]]]],
    ['full-width brackets', '重启网关［2］。', [['［2］', [2]]]],
    ['CJK lenticular brackets', '重启网关【3】。', [['【3】', [3]]]],
    ['two markers side by side', 'Both [1][2].', [['[1]', [1]], ['[2]', [2]]]],
    ['a list with a space', 'Both [1, 2].', [['[1, 2]', [1, 2]]]],
    ['a list without a space', 'Both [1,2].', [['[1,2]', [1, 2]]]],
    ['a list with a full-width comma', '两者【1，2】。', [['【1，2】', [1, 2]]]],
    ['a list with an ideographic comma', '两者［1、3］。', [['［1、3］', [1, 3]]]],
    ['full-width digits', '见［１２］。', [['［１２］', [12]]]],
    ['a range expands', 'See [1-3].', [['[1-3]', [1, 2, 3]]]],
    ['a range with an en dash and a list', 'See [2–3, 5].', [['[2–3, 5]', [2, 3, 5]]]],
    ['a range of length one', 'See [4-4].', [['[4-4]', [4]]]],
    ['a reversed range is not a marker', 'See [3-1].', []],
    ['a range longer than 20 is not a marker', 'Years [1-21].', []],
    ['repeated numbers count once', 'See [2, 2, 1].', [['[2, 2, 1]', [2, 1]]]],
    ['directly after CJK text needs no space', '结论[1]。', [['[1]', [1]]]],
    ['after punctuation', 'It works.[1]', [['[1]', [1]]]],
    ['the largest number', 'See [999].', [['[999]', [999]]]],
    ['four digits are not a citation', 'See [1000].', []],
    ['zero is not a citation', 'See [0].', []],
    ['a leading zero is not a citation', 'See [01].', []],
    ['a wiki reference is not a marker', 'Read [[wiki/x]] first.', []],
    ['doubled brackets around a number are not a marker', 'Read [[1]] first.', []],
    ['a markdown link is not a marker', 'See [1](https://example.com).', []],
    ['a checked checkbox is not a marker', '- [x] done', []],
    ['an empty checkbox is not a marker', '- [ ] todo', []],
    ['an array index is not a marker', 'Use arr[1] here.', []],
    ['after a digit or underscore is not a marker', 'x2[1] and a_b[2] and $[3]', []],
    ['mismatched brackets are not a marker', 'See [1】 and 【2].', []],
    ['a trailing separator is not a marker', 'See [1,].', []],
    ['an empty bracket is not a marker', 'See [].', []],
    ['words are not a marker', 'See [note 1].', []],
    ['inside inline code is not a marker', 'Call `f([1])` then [2].', [['[2]', [2]]]],
    ['inside a double-backtick span is not a marker', 'Call ``a ` [1]`` then [2].', [['[2]', [2]]]],
    ['an unmatched backtick is literal', 'a ` b [1]', [['[1]', [1]]]],
    ['inside a fenced code block is not a marker', 'Before [1].\n```js\nx = [2];\n```\nAfter [3].', [['[1]', [1]], ['[3]', [3]]]],
    ['inside a tilde fence is not a marker', '~~~\n[1]\n~~~\n[2]', [['[2]', [2]]]],
    ['an unclosed fence runs to the end (streaming)', 'Before [1].\n```\n[2]', [['[1]', [1]]]],
    ['a marker does not span lines', 'See [1\n].', []],
    ['an unclosed fence ends at its paragraph', 'Quote:\n```\nx = [1];\n\nSo [2], [3].', [['[2]', [2]], ['[3]', [3]]]],
    ['an unclosed tilde fence ends at its paragraph', '~~~\n[1]\n\n[2]', [['[2]', [2]]]],
    ['an unclosed fence with an info string ends there too', '```ts\nparse(x) [1]\n\nsafeParse [2]', [['[2]', [2]]]],
    ['a closed fence may hold blank lines', '```\na [1]\n\nb [2]\n```\nc [3]', [['[3]', [3]]]],
    ['a marker right after a closing fence', '```\ncode\n```\n[1] and [2]', [['[1]', [1]], ['[2]', [2]]]],
    ['a marker right after a closing tilde fence', '~~~~\n[1]\n~~~~\n[2]', [['[2]', [2]]]],
    ['a backtick fence is not closed by tildes', '```\n[1]\n~~~\n[2]\n\n[3]', [['[3]', [3]]]],
    ['a shorter run does not close a fence', '````\n[1]\n```\n[2]\n````\n[3]', [['[3]', [3]]]],
    ['a fence inside a list item', '1. Run:\n   ```\n   f([1])\n   ```\n2. Done [2].', [['[2]', [2]]]],
    ['inline code does not pair across paragraphs', 'Run `x [1]\n\nthen y` [2]', [['[1]', [1]], ['[2]', [2]]]],
    ['inline code does not pair across list items', '1. A — ``` parse [1]\n2. B — text [2]\n3. C — ``` end [3]', [
      ['[1]', [1]], ['[2]', [2]], ['[3]', [3]],
    ]],
    ['inline code may span a line break', 'Call `f(\n[1])` then [2].', [['[2]', [2]]]],
    ['an escaped backtick opens no span', 'a \\`b [1] c` [2]', [['[1]', [1]], ['[2]', [2]]]],
    ['an escaped backslash leaves the backtick a span', 'a \\\\`b [1]` [2]', [['[2]', [2]]]],
    ['an escaped bracket is not a marker', 'the text \\[1] and [2]', [['[2]', [2]]]],
    ['a marker right after inline code', 'Use `parse()`[1] or `safeParse()` [2].', [['[1]', [1]], ['[2]', [2]]]],
  ];

  it.each(rows)('%s', (_name, text, expected) => {
    expect(parseCitationMarkers(text).map((m) => [m.raw, m.numbers])).toEqual(expected);
  });

  it('reports offsets that slice back to the marker', () => {
    const text = '网关【1，2】重启后恢复 [3]';
    const markers = parseCitationMarkers(text);
    expect(markers.map((m) => [m.start, m.end])).toEqual([
      [2, 7],
      [13, 16],
    ]);
    for (const m of markers) expect(text.slice(m.start, m.end)).toBe(m.raw);
  });
});

describe('closeOpenFences', () => {
  // [name, text, expected]
  const rows: [string, string, string][] = [
    ['closes an unclosed fence at its paragraph end', 'x\n```js\nf [1]\n\ny [2]', 'x\n```js\nf [1]\n```\n\ny [2]'],
    ['repeats the indent and the run', '1. a\n   ~~~~\n   b\n\nc', '1. a\n   ~~~~\n   b\n   ~~~~\n\nc'],
    ['closes a fence that runs to the end', 'a\n```\nb', 'a\n```\nb\n```'],
    ['leaves closed fences alone', '```\na\n\nb\n```\nc', '```\na\n\nb\n```\nc'],
    ['leaves text without fences alone', 'a `b` [1]', 'a `b` [1]'],
  ];

  it.each(rows)('%s', (_name, text, expected) => {
    expect(closeOpenFences(text)).toBe(expected);
  });

  it('keeps every marker the parser finds outside code after closing', () => {
    const text = 'Quoted:\n```\nconst r = schema.parse(x) [9]\n\nUse safeParse [1] or parse [2].';
    const closed = closeOpenFences(text);
    expect(parseCitationMarkers(closed).map((m) => m.raw)).toEqual(['[1]', '[2]']);
  });
});

describe('fenceMapOf and fenceAt', () => {
  const page = 'Intro\n```ts\ncode();\n```\nprose\n~~~~\n```\nstill code\n~~~~\nend';
  const at = (word: string): [string, number] => [page, page.indexOf(word)];
  it.each([
    ['before any block', ...at('Intro'), null],
    ['on the opening line itself', ...at('```ts'), null],
    ['inside a backtick block', ...at('code()'), '```'],
    ['on its closing line', ...at('```\nprose'), '```'],
    ['after it closes', ...at('prose'), null],
    ['inside a tilde block, where backticks do not close it', ...at('still code'), '~~~~'],
    ['after the tilde block', ...at('end'), null],
    ['in a block never closed', 'a\n```\nb\nc', 9, '```'],
    ['after a line indented too far to be a fence', '    ```\nx', 8, null],
  ] as [string, string, number, string | null][])('%s', (_label, text, offset, fence) => {
    expect(fenceAt(fenceMapOf(text), offset)).toBe(fence);
  });
});

describe('findAttributedQuotes', () => {
  // [name, text, expected [quote, numbers, markerIndex]]
  const rows: [string, string, [string, number[], number][]][] = [
    ['straight quotes', 'The log says "connection reset" [1].', [['connection reset', [1], 0]]],
    ['curly quotes, no space', 'It says “retry twice”[2].', [['retry twice', [2], 0]]],
    ['corner brackets', '文档写道「先重启网关」【1】。', [['先重启网关', [1], 0]]],
    ['white corner brackets', '文档写道『重启』［2］。', [['重启', [2], 0]]],
    ['a full-width space between', '文档写道「先重启」\u3000[1]', [['先重启', [1], 0]]],
    ['a run of markers after one quote', 'It says “retry” [1][2] and more [3].', [['retry', [1, 2], 0]]],
    ['the second quote gets the second marker', '“a” [1] then “b” [2]', [['a', [1], 0], ['b', [2], 1]]],
    ['nested corner brackets', '「外「内」外」[1]', [['外「内」外', [1], 0]]],
    ['no quote before the marker', 'Plain claim [1].', []],
    ['punctuation between quote and marker breaks the link', '“retry”。[1]', []],
    ['a line break between quote and marker breaks the link', '“retry”\n[1]', []],
    ['an empty quote is ignored', 'Empty “” [1]', []],
    ['a quote does not reach across a blank line', 'a “b\n\nc” [1]', []],
  ];

  it.each(rows)('%s', (_name, text, expected) => {
    const found = findAttributedQuotes(text, parseCitationMarkers(text));
    expect(found.map((q) => [q.quote, q.numbers, q.markerIndex])).toEqual(expected);
  });
});

describe('quoteMatches', () => {
  const passage = '重启网关后，\n连接恢复正常。Use  the\tOllama server\nto answer.';
  // [name, quote, passage, expected]
  const rows: [string, string, string, boolean][] = [
    ['exact substring', '连接恢复正常', passage, true],
    ['a line break between Chinese characters is ignored', '重启网关后，连接恢复正常', passage, true],
    ['spaces inside Chinese in the quote are ignored', '重启 网关', passage, true],
    ['runs of whitespace are one space', 'Use the Ollama server to answer', passage, true],
    ['surrounding whitespace is trimmed', '  Ollama server  ', passage, true],
    ['a space between Chinese and English is optional', '正常。 Use the', passage, true],
    ['a missing space between English words matters', 'theOllama', passage, false],
    ['case matters', 'use the ollama', passage, false],
    ['different words do not match', '连接失败', passage, false],
    ['punctuation width matters', '重启网关后,', passage, false],
    ['an empty quote never matches', '', passage, false],
    ['a whitespace-only quote never matches', ' \n ', passage, false],
    ['Korean spaces still count', '안녕하세요', '안녕 하세요', false],
  ];

  it.each(rows)('%s', (_name, quote, text, expected) => {
    expect(quoteMatches(quote, text)).toBe(expected);
  });
});
