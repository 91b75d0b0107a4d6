import { describe, expect, it } from 'vitest';
import { normaliseNewlines } from './decode';
import { metadataOf, parseMarkdown } from './markdown';

describe('parseMarkdown', () => {
  it('cuts the front matter, keeps the source as written and shifts heading spans', () => {
    const source = '---\ntitle: Retry notes\ntags: [net, ops]\n---\n\n\n# Retry *policy* `v2`\n\nWait **3 s**.\n\n## Back-off 退避\n';
    const doc = parseMarkdown(source);
    expect(doc.text).toBe('# Retry *policy* `v2`\n\nWait **3 s**.\n\n## Back-off 退避\n');
    expect(doc.title).toBe('Retry notes');
    expect(doc.metadata).toEqual({ title: 'Retry notes', tags: ['net', 'ops'] });
    expect(doc.headings).toEqual([
      { start: 0, end: 21, level: 1, text: 'Retry policy v2' },
      { start: 38, end: 52, level: 2, text: 'Back-off 退避' },
    ]);
    expect(doc.headings.map((h) => doc.text.slice(h.start, h.end))).toEqual(['# Retry *policy* `v2`', '## Back-off 退避']);
    expect(source.endsWith(doc.text)).toBe(true);
  });

  it('counts offsets in UTF-16 units, as JavaScript strings do', () => {
    const doc = parseMarkdown('---\na: 1\n---\nIntro 😀😀 中文\n\n### Deep 😀 heading\n');
    const [h] = doc.headings;
    expect(h).toBeDefined();
    expect(doc.text.slice(h!.start, h!.end)).toBe('### Deep 😀 heading');
    expect(h!.level).toBe(3);
  });

  it('finds setext, indented, quoted and listed headings, spanning their whole lines', () => {
    const text = 'Title line\ncontinued\n===\n\n   ## Indented ##  \n\n> # Quoted\n\n- #### In a list\n\nSub\n---\n';
    const doc = parseMarkdown(text);
    expect(doc.headings.map((h) => [h.level, h.text, text.slice(h.start, h.end)])).toEqual([
      [1, 'Title line continued', 'Title line\ncontinued\n==='],
      [2, 'Indented', '   ## Indented ##  '],
      [1, 'Quoted', '> # Quoted'],
      [4, 'In a list', '- #### In a list'],
      [2, 'Sub', 'Sub\n---'],
    ]);
  });

  it('ignores # lines inside code blocks and a `---` that is not at the very start', () => {
    const text = 'Intro\n\n---\ntitle: not front matter\n---\n\n```sh\n# a comment\n```\n';
    const doc = parseMarkdown(text);
    expect(doc.text).toBe(text);
    expect(doc.metadata).toEqual({});
    expect(doc.headings.map((h) => h.text)).toEqual(['title: not front matter']);
  });

  it.each([
    ['front matter title', '---\ntitle: "  From YAML "\n---\n# Heading\n', 'From YAML'],
    ['numeric front matter title', '---\ntitle: 2024\n---\ntext\n', '2024'],
    // A level-2 heading names a part of the page, never the page (issue #12: "Installation", "Contents").
    ['first level-1 heading when no title', '---\nauthor: me\n---\ntext\n\n# First\n\n## Second level\n', 'First'],
    // ...nor is a level-1 heading after one (zustand's "# Recipes" after its "##" introduction).
    ['no level-1 heading after a level-2 one', '---\nauthor: me\n---\ntext\n\n## Second level first\n\n# Later\n', null],
    ['first non-empty heading', '#\n\n# Real *one*\n', 'Real one'],
    ['no heading, no title', 'just text\n', null],
    ['empty front matter title', '---\ntitle: ""\n---\n# H\n', 'H'],
    // Images and badges are not part of a title (issue #12: "dotenv NPM version").
    ['no image alt in the title', '# ![logo](x.png) Sift\n', 'Sift'],
  ])('title: %s', (_label, text, title) => {
    expect(parseMarkdown(text).title).toBe(title);
  });

  it('handles a file that is only front matter, and an unclosed one as text', () => {
    expect(parseMarkdown('---\ntitle: x\n---\n').text).toBe('');
    expect(parseMarkdown('---\ntitle: x\n').text).toBe('---\ntitle: x\n');
  });
});

describe('metadataOf', () => {
  it.each([
    ['scalars', 'a: text\nb: 3\nc: 2.5\nd: true', { a: 'text', b: 3, c: 2.5, d: true }],
    ['lists of scalars become strings', 'tags: [x, 2, true]\nempty: []', { tags: ['x', '2', 'true'], empty: [] }],
    ['nested and null dropped', 'map: {a: 1}\nnone: null\nlist: [{a: 1}]\nok: y', { ok: 'y' }],
    ['non-finite numbers dropped', 'inf: .inf\nnan: .nan\nn: 1', { n: 1 }],
    ['dates stay text', 'date: 2024-05-01', { date: '2024-05-01' }],
    ['Chinese keys and values', '标签: [笔记, 网络]\n作者: 张三', { 标签: ['笔记', '网络'], 作者: '张三' }],
    ['broken YAML', 'a: [unclosed\nb: 1', {}],
    ['a list, not a map', '- a\n- b', {}],
    ['a bare scalar', 'just text', {}],
    ['nothing', '', {}],
  ])('%s', (_label, yaml, expected) => {
    expect(metadataOf(yaml)).toEqual(expected);
  });
});

/** Each heading as [level, text, the source it spans]. */
function headingsIn(source: string): [number, string, string][] {
  const doc = parseMarkdown(source);
  return doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)]);
}

describe('parseMarkdown headings where Markdown parsers could disagree', () => {
  it.each<[string, string, [number, string, string][]]>([
    ['setext level 1 and 2', 'One\n===\n\nTwo\n---\n', [[1, 'One', 'One\n==='], [2, 'Two', 'Two\n---']]],
    ['setext underline indented and trailing spaces', 'Title\n   ===  \n', [[1, 'Title', 'Title\n   ===  ']]],
    ['setext over two lines, with a hard break', 'a  \nb\\\nc\n---\n', [[2, 'a b c', 'a  \nb\\\nc\n---']]],
    ['`---` after a blank line is a rule, not a heading', 'Text\n\n---\n', []],
    ['ATX closing sequence and `#` without space', '## a ##\n#b\n# a #b\n', [[2, 'a', '## a ##'], [1, 'a #b', '# a #b']]],
    ['seven `#` are text; six are a heading', '###### six\n####### seven\n', [[6, 'six', '###### six']]],
    ['empty ATX heading', '#\n', [[1, '', '#']]],
    ['headings in list items', '- # a\n- item\n\n  ## b\n1. ### c\n', [[1, 'a', '- # a'], [2, 'b', '  ## b'], [3, 'c', '1. ### c']]],
    ['headings in block quotes, nested', '> # q\n> > ## qq\n> - ### ql\n', [[1, 'q', '> # q'], [2, 'qq', '> > ## qq'], [3, 'ql', '> - ### ql']]],
    ['setext heading in a block quote', '> Quoted\n> ---\n', [[2, 'Quoted', '> Quoted\n> ---']]],
    ['a lazy underline is paragraph text', '> a\n===\n', []],
    ['`#` in fenced code, backticks and tildes', '```\n# not\n```\n~~~md\n# not\n~~~\n# yes\n', [[1, 'yes', '# yes']]],
    ['`#` in an unclosed fence', '```\n# not\n', []],
    ['`#` in indented code', '    # not\n\n\t# not\n', []],
    ['`#` in an HTML block', '<div>\n# not\n</div>\n\n# yes\n', [[1, 'yes', '# yes']]],
    ['`#` in an HTML comment', '<!--\n# not\n-->\n# yes\n', [[1, 'yes', '# yes']]],
    ['HTML in a heading is dropped', '# <span>a</span> b <br>\n', [[1, 'a b', '# <span>a</span> b <br>']]],
    ['table rows are not setext headings', '| a | b |\n| - | - |\nc\n===\n', []],
    ['a table may interrupt a paragraph', 'p\na | b\n--|--\nrow\n---\n', []],
    ['Chinese and emoji headings', '# 重试策略 😀\n\n## 退避 🎉 back-off\n', [[1, '重试策略 😀', '# 重试策略 😀'], [2, '退避 🎉 back-off', '## 退避 🎉 back-off']]],
    ['heading as the last line, no newline', 'text\n\n## last', [[2, 'last', '## last']]],
    ['setext heading at the end, no newline', 'Last\n===', [[1, 'Last', 'Last\n===']]],
    ['empty list item after indented code (CommonMark)', '    code\n-\n    # in item\n', [[1, 'in item', '    # in item']]],
    ['definition lines are not part of a setext heading', '[r]: /u\nTitle\n---\n', [[2, 'Title', 'Title\n---']]],
  ])('%s', (_label, source, expected) => {
    expect(headingsIn(source)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    ['emphasis and strong', '# *a* **b** ***c*** _d_', 'a b c d'],
    ['inline code kept, one space trimmed', '# run `` `x` `` now', 'run `x` now'],
    ['image alt kept, also with markup inside', '# ![a *b* `c`](x.png) d', 'a b c d'],
    ['a linked image (a badge) dropped, a plain one kept', '# better-sqlite3 [![Build Status](b.svg)](https://ci/x) ![go](g.png)', 'better-sqlite3 go'],
    ['link text kept, URL dropped', '# [Sift](https://example.com "t") docs', 'Sift docs'],
    ['a javascript: link still gives its text', '# [x](javascript:void(0))', 'x'],
    ['reference link defined below', '# [Guide][g]\n\n[g]: /guide', 'Guide'],
    ['undefined reference stays text', '# [Guide][g]', '[Guide][g]'],
    ['autolinks as written, not URL-decoded', '# <https://a.b/%E4%B8%AD> <me@x.cn>', 'https://a.b/%E4%B8%AD me@x.cn'],
    ['escapes and entities decoded', '# \\# 1 &amp; &#x4e2d; &copy; &bogus;', '# 1 & 中 © &bogus;'],
    ['double-tilde strike-through markup dropped, its text kept', '# ~~older~~ new', 'older new'],
    ['a lone tilde is text', '# ~5 ms', '~5 ms'],
    ['a footnote call is text', '# Note[^2]', 'Note[^2]'],
    ['whitespace collapsed', '#   a \t  b   ', 'a b'],
  ])('heading text: %s', (_label, source, text) => {
    expect(parseMarkdown(source).headings[0]?.text).toBe(text);
  });

  it('spans each heading over exactly its source lines in a mixed document', () => {
    const source = [
      '---',
      'title: Mixed',
      '---',
      '',
      '# Intro 介绍',
      'Para with `# not` and *em*.',
      '',
      'Setext *two*',
      'lines',
      '=====',
      '',
      '> ## Quoted 引用',
      '',
      '- item',
      '  ### In item',
      '',
      '```sh',
      '# comment',
      '```',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '   #### Indented ####   ',
      'Under',
      '---',
      '###### 😀 end',
    ].join('\n');
    const doc = parseMarkdown(source);
    expect(doc.text.startsWith('# Intro 介绍\n')).toBe(true);
    const lines = doc.text.split('\n');
    const lineStarts = lines.map((_, i) => lines.slice(0, i).join('\n').length + (i > 0 ? 1 : 0));
    const expected: [number, string, string][] = [
      [1, 'Intro 介绍', '# Intro 介绍'],
      [1, 'Setext two lines', 'Setext *two*\nlines\n====='],
      [2, 'Quoted 引用', '> ## Quoted 引用'],
      [3, 'In item', '  ### In item'],
      [4, 'Indented', '   #### Indented ####   '],
      [2, 'Under', 'Under\n---'],
      [6, '😀 end', '###### 😀 end'],
    ];
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual(expected);
    for (const h of doc.headings) {
      expect(lineStarts).toContain(h.start); // starts at a line start
      expect(h.end === doc.text.length || doc.text[h.end] === '\n').toBe(true); // ends at a line end
    }
    expect(doc.title).toBe('Mixed');
  });

  it('reads a CRLF file the same as an LF one once line endings are normalised', () => {
    const lf = '---\ntitle: T\n---\r\n\n# A\n\nB\n---\n';
    const crlf = normaliseNewlines(lf.replace(/\r?\n/g, '\r\n'));
    expect(crlf).toBe(lf.replace('\r', ''));
    expect(parseMarkdown(crlf)).toEqual(parseMarkdown(lf.replace('\r', '')));
    expect(headingsIn(crlf)).toEqual([[1, 'A', '# A'], [2, 'B', 'B\n---']]);
  });
});

describe('parseMarkdown front matter', () => {
  it.each<[string, string, string, Record<string, unknown>]>([
    ['closed, blank lines after it cut', '---\na: 1\n---\n\n \t\n\nBody\n', 'Body\n', { a: 1 }],
    ['fences with trailing spaces and tabs', '--- \t\na: 1\n---  \nBody', 'Body', { a: 1 }],
    ['closing fence ends the file', '---\na: 1\n---', '', { a: 1 }],
    ['empty front matter', '---\n---\nBody', 'Body', {}],
    ['blank lines inside kept for YAML', '---\n\na: 1\n\nb: x\n---\nBody', 'Body', { a: 1, b: 'x' }],
    ['whitespace-only last line stays', '---\na: 1\n---\n  ', '  ', { a: 1 }],
    ['broken YAML: no metadata, the page stays', '---\na: [1\n---\n# H\n', '# H\n', {}],
    ['no closing fence: all text', '---\na: 1\n# H\n', '---\na: 1\n# H\n', {}],
    ['four dashes are not a fence', '----\na: 1\n----\nBody', '----\na: 1\n----\nBody', {}],
    ['closing fence with text after it is content', '---\na: 1\n--- x\nb: 2\n---\nBody', 'Body', {}],
    ['opening fence must start the file', ' ---\na: 1\n---\nBody', ' ---\na: 1\n---\nBody', {}],
    ['opening fence alone, no line break', '---', '---', {}],
  ])('%s', (_label, source, text, metadata) => {
    const doc = parseMarkdown(source);
    expect(doc.text).toBe(text);
    expect(doc.metadata).toEqual(metadata);
  });

  it('finds headings in containers after an unclosed front matter fence', () => {
    // The `---` is a thematic break; what follows is ordinary Markdown.
    expect(headingsIn('---\n> # Quoted\n- ## Listed\n')).toEqual([
      [1, 'Quoted', '> # Quoted'],
      [2, 'Listed', '- ## Listed'],
    ]);
  });
});
