/**
 * Bare URLs in Chinese text. GFM autolinks a bare URL up to the next space, and Chinese puts no
 * space after one, so "见 http://127.0.0.1:11434），以下是…" linked "），以下是…" too. Here such a
 * link ends before the first CJK or full-width punctuation mark, as a person reading it would end it,
 * and the rest goes back to the text. Written links (`[text](url)`) are left as they are.
 */
import type { Link, Nodes, Parent, Root, Text } from 'mdast';

// CJK Symbols and Punctuation (、。「」【】…) and Halfwidth and Fullwidth Forms (，：；（）！？).
const CJK_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef]/u;
// What GFM itself trims from the end of a bare URL, once the CJK rest is cut off.
const TRAILING = /[.,:;!?"'*_~]+$/;

/** Cut every bare-URL link of `tree` at its first CJK punctuation mark (in place). */
export function endAutolinksAtCjkPunctuation(tree: Root): void {
  walk(tree);
}

/** The same as a remark plugin (for react-markdown's `remarkPlugins`). */
export function remarkCjkAutolinks() {
  return (tree: Root) => endAutolinksAtCjkPunctuation(tree);
}

function walk(node: Parent): void {
  const children: Nodes[] = [];
  for (const child of node.children) {
    if (child.type === 'link') children.push(...splitLink(child));
    else {
      if ('children' in child) walk(child);
      children.push(child);
    }
  }
  node.children = children as typeof node.children;
}

/** A link GFM made from a bare URL (its text is the URL), split before CJK punctuation. */
function splitLink(link: Link): Nodes[] {
  const text = link.children.length === 1 && link.children[0]!.type === 'text' ? link.children[0] : null;
  if (!text) return [link];
  const literal = text.value;
  const bare = link.url === literal || link.url === `http://${literal}` || link.url === `mailto:${literal}`;
  const at = bare ? literal.search(CJK_PUNCTUATION) : -1;
  if (at < 0) return [link];
  const kept = literal.slice(0, at).replace(TRAILING, '');
  const rest = literal.slice(kept.length);
  const tail: Text = { type: 'text', value: rest, position: shifted(text, kept.length, literal.length) };
  if (!kept) return [tail];
  const head: Text = { type: 'text', value: kept, position: shifted(text, 0, kept.length) };
  return [{ ...link, url: link.url.slice(0, link.url.length - rest.length), children: [head], position: head.position }, tail];
}

/** The source position of `text.value.slice(from, to)`, when the text has one (one line, as a URL is). */
function shifted(text: Text, from: number, to: number): Text['position'] {
  const p = text.position;
  if (!p || p.start.offset === undefined) return undefined;
  const at = (n: number) => ({ line: p.start.line, column: p.start.column + n, offset: p.start.offset! + n });
  return { start: at(from), end: at(to) };
}
