import { describe, expect, it } from 'vitest';
import {
  alignOffsets, MARKDOWN_RENDER_LIMIT, parseMarkdown, renderMarkdown, renderParsed, renderQuote, rendersAsMarkdown, textOf,
  type MdElement, type MdNode,
} from './page-markdown';

/** The rendered text inside <mark>s, joined. */
function markedText(nodes: MdNode[]): string {
  return nodes
    .map((n) => (n.kind === 'text' ? (n.marked ? n.text : '') : n.marked ? textOf([n]) : markedText(n.children)))
    .join('');
}

function find(nodes: MdNode[], tag: string): MdElement[] {
  return nodes.flatMap((n) => (n.kind === 'element' ? [...(n.tag === tag ? [n] : []), ...find(n.children, tag)] : []));
}

describe('renderMarkdown', () => {
  it('renders headings, lists, tables and code instead of their syntax', () => {
    const nodes = renderMarkdown('# Title\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1;\n```\n');
    expect(find(nodes, 'h1').map((h) => textOf(h.children))).toEqual(['Title']);
    expect(find(nodes, 'li').map((h) => textOf(h.children))).toEqual(['one', 'two']);
    expect(find(nodes, 'td').map((h) => textOf(h.children))).toEqual(['1', '2']);
    expect(textOf(find(nodes, 'pre'))).toBe('let x = 1;\n');
    expect(textOf(nodes)).not.toContain('#');
  });

  it('decodes entities, shows raw HTML as text and never loads images', () => {
    const nodes = renderMarkdown('Strong &#128170; <b>bold</b>\n\n<div>block</div>\n\n![badge](https://img.shields.io/x.svg)');
    expect(textOf(nodes)).toContain('Strong 💪 <b>bold</b>');
    expect(textOf(nodes)).toContain('<div>block</div>');
    expect(find(nodes, 'b')).toHaveLength(0);
    const [img] = find(nodes, 'img');
    expect(img?.attrs).toMatchObject({ alt: 'badge', src: 'https://img.shields.io/x.svg' });
  });

  it('keeps web links and turns javascript:, data: and relative links into text', () => {
    const nodes = renderMarkdown('[web](https://example.com) [bad](javascript:alert(1)) [d](data:text/html,x) [rel](other.md)');
    const links = find(nodes, 'a');
    expect(links.map((a) => a.attrs.href)).toEqual(['https://example.com']);
    expect(textOf(nodes)).toBe('web bad d rel');
  });

  it('highlights exactly the cited characters, across emphasis, headings and list items', () => {
    const source = '# Intro\n\nSome **bold claim** here.\n\n## Next\n\n- item one\n- item two\n';
    const start = source.indexOf('bold');
    const end = source.indexOf('one') + 3;
    const nodes = renderMarkdown(source, { start, end });
    expect(markedText(nodes)).toBe('bold claim here.Nextitem one');
    expect(textOf(find(nodes, 'h1'))).toBe('Intro');
  });

  it('maps escapes, entities and indented continuation lines back to their source', () => {
    const source = '- a \\*star\\* &amp; more\n  second line\n';
    const start = source.indexOf('star');
    const end = source.indexOf('second') + 6;
    expect(markedText(renderMarkdown(source, { start, end }))).toBe('star* & more\nsecond');
  });

  it('highlights inside code blocks by their exact characters', () => {
    const source = 'Text\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n';
    const start = source.indexOf('const b');
    const nodes = renderMarkdown(source, { start, end: start + 'const b'.length });
    expect(markedText(nodes)).toBe('const b');
  });

  it('marks an image (its alt text) when the span covers it, and nothing without a span', () => {
    const source = 'See ![chart](local.png) now';
    const nodes = renderMarkdown(source, { start: 4, end: 23 });
    expect(find(nodes, 'img')[0]?.marked).toBe(true);
    expect(markedText(renderMarkdown(source))).toBe('');
  });
});

describe('rendersAsMarkdown', () => {
  it('renders Markdown pages up to the limit and keeps other kinds and huge pages plain', () => {
    expect(rendersAsMarkdown('markdown', MARKDOWN_RENDER_LIMIT)).toBe(true);
    expect(rendersAsMarkdown('markdown', MARKDOWN_RENDER_LIMIT + 1)).toBe(false);
    for (const kind of ['text', 'pdf', 'code', 'docx', 'html']) expect(rendersAsMarkdown(kind, 10)).toBe(false);
  });

  it('reuses one parse for different highlights', () => {
    const source = '# A\n\nfirst part\n\nsecond part\n';
    const parsed = parseMarkdown(source);
    const at = (word: string) => ({ start: source.indexOf(word), end: source.indexOf(word) + word.length });
    expect(markedText(renderParsed(parsed, at('first')))).toBe('first');
    expect(markedText(renderParsed(parsed, at('second')))).toBe('second');
  });
});

describe('alignOffsets', () => {
  it('maps an exact copy one to one and skips characters the renderer dropped', () => {
    expect(alignOffsets('abc', 'xxabcxx', [2, 5])).toEqual([2, 3, 4]);
    expect(alignOffsets('a*b', 'a\\*b', [0, 4])).toEqual([0, 2, 3]);
  });
});

describe('renderQuote', () => {
  // Zod's README as a passage cut it: the tail of an example, its closing fence, then the explanation.
  const quote = "  ], message: 'Invalid input' } ] */\n}\n```\n\nTo avoid a `try/catch` block, use `.safeParse()`.";

  it('shows a passage that starts inside a code block as the page does', () => {
    const nodes = renderQuote(quote, { openFence: '```' });
    expect(textOf(find(nodes, 'pre'))).toBe("  ], message: 'Invalid input' } ] */\n}\n");
    expect(find(nodes, 'p').map((p) => textOf(p.children))).toEqual(['To avoid a try/catch block, use .safeParse().']);
  });

  it('without the fence, the closing fence would turn the prose to code (what the quote showed before)', () => {
    expect(textOf(find(renderQuote(quote), 'pre'))).toContain('To avoid a');
  });

  it('starts at the focus, opening the block the focus lies in', () => {
    const focus = quote.indexOf('}\n```');
    const nodes = renderQuote(quote, { focus, openFence: '```' });
    expect(textOf(find(nodes, 'pre'))).toBe('}\n');
    expect(textOf(nodes)).not.toContain('Invalid input');
    expect(textOf(renderQuote(quote, { focus: quote.indexOf('To avoid') }))).toBe('To avoid a try/catch block, use .safeParse().');
  });
});
