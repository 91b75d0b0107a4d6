import type { Link, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { endAutolinksAtCjkPunctuation } from './autolink';
import { renderMarkdown, textOf } from './page-markdown';

function parse(markdown: string): Root {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  endAutolinksAtCjkPunctuation(tree);
  return tree;
}

function links(node: Nodes): Link[] {
  const own = node.type === 'link' ? [node] : [];
  return [...own, ...('children' in node ? node.children.flatMap((c) => links(c)) : [])];
}

function linkText(link: Link): string {
  return link.children.map((c) => ('value' in c ? c.value : '')).join('');
}

describe('bare URLs before Chinese punctuation', () => {
  it.each([
    ['没有模型（http://127.0.0.1:11434），以下是段落', 'http://127.0.0.1:11434'],
    ['见 https://example.com/docs。然后', 'https://example.com/docs'],
    ['见 https://example.com/a.，然后', 'https://example.com/a'],
    ['访问 www.example.com：首页', 'http://www.example.com'],
    ['see https://example.com/中文/路径 here', 'https://example.com/中文/路径'],
  ])('%s', (markdown, url) => {
    const tree = parse(markdown);
    const [link] = links(tree);
    expect(link?.url).toBe(url);
    expect(url.endsWith(linkText(link!))).toBe(true);
    // No words are lost: the text reads as before.
    const all = (n: Nodes): string => ('value' in n ? n.value : 'children' in n ? n.children.map(all).join('') : '');
    expect(all(tree)).toBe(markdown);
  });

  it('leaves written links alone', () => {
    const [link] = links(parse('[文档（旧）](https://example.com/a（b）)'));
    expect(link?.url).toBe('https://example.com/a（b）');
  });

  it('ends links in a rendered page too, its text unchanged', () => {
    const nodes = renderMarkdown('服务地址 http://127.0.0.1:11434），以下是说明。');
    expect(JSON.stringify(nodes)).toContain('"href":"http://127.0.0.1:11434"');
    expect(textOf(nodes)).toBe('服务地址 http://127.0.0.1:11434），以下是说明。');
  });
});
