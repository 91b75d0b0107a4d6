import { describe, expect, it } from 'vitest';
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
    ['first heading when no title', '---\nauthor: me\n---\ntext\n\n## Second level first\n\n# Later\n', 'Second level first'],
    ['first non-empty heading', '#\n\n# Real *one*\n', 'Real one'],
    ['no heading, no title', 'just text\n', null],
    ['empty front matter title', '---\ntitle: ""\n---\n# H\n', 'H'],
    ['image alt in heading', '# ![logo](x.png) Sift\n', 'logo Sift'],
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
