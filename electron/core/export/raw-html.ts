/**
 * Raw HTML in an exported Markdown file is shown, never run: an answer (or a quoted document) may hold `<script>`,
 * `<img src=x onerror=…>` or `<iframe>`, and every Markdown viewer that renders HTML would run or load it when the
 * export is opened. Each raw-HTML span the Markdown parser finds (block or inline) gets its `<` written as `&lt;`,
 * which every viewer shows as the `<` it was; code spans and fenced code, where `<` is already literal, are left alone.
 */
import type { Nodes as MdastNodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** The `[start, end)` offsets of every raw-HTML node of `markdown`. */
function rawHtmlSpans(markdown: string): [number, number][] {
  const spans: [number, number][] = [];
  const walk = (node: MdastNodes): void => {
    const { start, end } = node.position ?? {};
    if (node.type === 'html' && start?.offset !== undefined && end?.offset !== undefined) spans.push([start.offset, end.offset]);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return spans;
}

/** `markdown` with the `<` of every raw-HTML span written as `&lt;`, so the tags show as text. */
export function neutralRawHtml(markdown: string): string {
  const spans = rawHtmlSpans(markdown);
  if (spans.length === 0) return markdown;
  let out = '';
  let at = 0;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    out += markdown.slice(at, start) + markdown.slice(start, end).replace(/</g, '&lt;');
    at = end;
  }
  return out + markdown.slice(at);
}
