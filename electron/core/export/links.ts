/**
 * Which links an export may keep: `http:`, `https:`, `mailto:` and anchors inside the document. Any
 * other URL — `javascript:`, `data:`, `file:`, a relative path — from an answer or a quoted document is
 * taken out, in the Markdown (the link becomes its literal text) and again in the HTML (the attribute
 * is dropped), so neither an exported file nor the PDF printed from it carries a link that runs or
 * loads anything else.
 */
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Nodes as MdastNodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** True for a URL an export may link to: `http(s):`, `mailto:` or `#anchor` (case and spaces ignored). */
export function isSafeUrl(url: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme (`java\tscript:`).
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  return compact.startsWith('#') || /^(https?|mailto):/.test(compact);
}

/** Offsets in `markdown` where a link, image, autolink or link definition with an unsafe URL starts. */
function unsafeLinkStarts(markdown: string): number[] {
  const starts: number[] = [];
  const walk = (node: MdastNodes): void => {
    const linked = node.type === 'link' || node.type === 'image' || node.type === 'definition';
    const unsafe = linked && !isSafeUrl(node.url);
    const offset = node.position?.start.offset;
    if (unsafe && offset !== undefined) starts.push(offset);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return starts;
}

/** Index of the character that makes the link at `start` a link: `[`, `![`'s `[`, or an autolink's `<`. */
function opener(markdown: string, start: number): number {
  return markdown[start] === '!' ? start + 1 : start;
}

/**
 * `markdown` with every link whose URL {@link isSafeUrl} refuses turned into the literal text it was
 * written as (its opening `[` or `<` escaped), and so shown, not followed. Repeated until none is left,
 * because un-linking an outer bracket can let an inner one parse as a link.
 */
export function safeMarkdownLinks(markdown: string): string {
  let text = markdown;
  for (let round = 0; round < 100; round++) {
    const starts = unsafeLinkStarts(text);
    if (starts.length === 0) return text;
    for (const start of starts.sort((a, b) => b - a)) {
      const at = opener(text, start);
      text = `${text.slice(0, at)}\\${text.slice(at)}`;
    }
  }
  // Not reached by any Markdown we know of; if it were, no bracket or angle bracket may open anything.
  return text.replace(/[[<]/g, '\\$&');
}

const URL_PROPERTIES = ['href', 'src'] as const;

/** Drops every `href` and `src` of `tree` that {@link isSafeUrl} refuses, in place; returns `tree`. */
export function dropUnsafeUrls(tree: HastRoot): HastRoot {
  const walk = (node: HastRoot | HastContent): void => {
    if (node.type === 'element') dropFrom(node);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return tree;
}

function dropFrom(element: Element): void {
  for (const name of URL_PROPERTIES) {
    const value = element.properties[name];
    if (value !== undefined && value !== null && !isSafeUrl(String(value))) delete element.properties[name];
  }
}
