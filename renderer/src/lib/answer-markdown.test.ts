import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { answerMarkdown, citeOf } from './answer-markdown';

/** The citation links of `markdown` as react-markdown with remark-gfm reads it (the same parser), outside code. */
function chips(markdown: string): { marker: number; number: number }[] {
  const found: { marker: number; number: number }[] = [];
  const walk = (node: Nodes): void => {
    const cite = node.type === 'link' ? citeOf(node.url) : null;
    if (cite) found.push(cite);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return found;
}

describe('answerMarkdown', () => {
  // [name, answer, expected chips as [marker, number]]
  const rows: [string, string, [number, number][]][] = [
    ['plain markers', 'Three times [1], two seconds [2].', [[0, 1], [1, 2]]],
    ['a fence never closed ends at its paragraph', 'It quotes:\n```ts\nparse(x) [9]\n\nsafeParse [1], parse [2].', [
      [0, 1], [1, 2],
    ]],
    ['a tilde fence never closed', '~~~\nconst a = b[1];\n\nSee [1].', [[0, 1]]],
    ['a marker right after a closing fence', '```\nparse()\n```\n[1] and [2]', [[0, 1], [1, 2]]],
    ['an extractive answer with half fences quoted as escaped text', [
      '1. **zod** — \\`\\`\\` parse throws [1]',
      '2. **safe** — use safeParse \\`\\`\\`ts const r [2]',
      '3. **html** — \\<b> and \\[9\\] and \\`tick [3]',
    ].join('\n'), [[0, 1], [1, 2], [2, 3]]],
    ['inline code keeps its markers out', 'Call `f([1])` then [2].', [[0, 2]]],
  ];

  it.each(rows)('%s', (_name, answer, expected) => {
    const { markdown, markers } = answerMarkdown(answer);
    expect(chips(markdown).map((c) => [c.marker, c.number])).toEqual(expected);
    expect(markers).toHaveLength(expected.length);
  });

  it('closes the fence in what it renders, not in the markers it reports', () => {
    const answer = 'x\n```\ncode\n\nafter [1]';
    const { markdown, markers } = answerMarkdown(answer);
    expect(markdown).toBe('x\n```\ncode\n```\n\nafter [\\[1\\]](#sift-cite-0-1)');
    expect(answer.slice(markers[0]!.start, markers[0]!.end)).toBe('[1]');
  });
});
