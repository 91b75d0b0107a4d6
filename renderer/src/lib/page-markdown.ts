/**
 * Markdown → a small tree of rendered nodes that remember where in the source they came from, so a
 * cited span `[start, end)` of a page's canonical text can be highlighted on exactly the characters
 * the reader sees. The parser's positions are the source of truth; a text node whose value differs
 * from its source (escapes, entities, stripped indentation) is aligned character by character.
 *
 * Safety is decided here, not in the component: raw HTML becomes text, `javascript:`/`data:` and
 * other non-web links become plain text, and images are never loaded (the component shows their
 * alt text), since the app's CSP forbids remote images anyway.
 */
import type { Element as HastElement, Nodes as HastNodes, Root as HastRoot, Text as HastText } from 'hast';
import type { Nodes as MdastNodes, Parent as MdastParent, Root as MdastRoot, Text as MdastText } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import { endAutolinksAtCjkPunctuation } from './autolink';

/** A run of rendered text, with whether it lies inside the highlighted span. */
export interface MdText {
  kind: 'text';
  text: string;
  marked: boolean;
}

/** A rendered element; `start`/`end` are its source offsets when the parser knows them. */
export interface MdElement {
  kind: 'element';
  /** One of {@link ALLOWED_TAGS}; anything else is rendered as `span`. */
  tag: string;
  attrs: Record<string, string | boolean>;
  children: MdNode[];
  start: number | null;
  end: number | null;
  /** True when the element is atomic (an image, a rule, a checkbox) and overlaps the highlight. */
  marked: boolean;
}

/** A node of the rendered tree. */
export type MdNode = MdText | MdElement;

/** Tags the renderer may create; everything else becomes `span`. */
export const ALLOWED_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'em', 'strong',
  'del', 'a', 'img', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input', 'sup', 'section', 'div', 'span',
]);

/** Link targets the reader may open in a browser; anything else (javascript:, data:, file paths) is text. */
const WEB_LINK = /^(https?:|mailto:)/i;

/**
 * Largest page (in characters) rendered as Markdown; longer pages keep the plain rendering, whose
 * highlight is exact too. Parsing runs on the UI thread at about 100,000 characters a second on a
 * busy 2-core machine (measured with list- and table-heavy notes), so this bounds a freeze to about
 * half a second. Default 60,000; sensible 20,000–200,000.
 */
export const MARKDOWN_RENDER_LIMIT = 60_000;

/** True when a page is rendered as Markdown: a Markdown page no longer than {@link MARKDOWN_RENDER_LIMIT}. */
export function rendersAsMarkdown(kind: string, length: number): boolean {
  return isMarkdownKind(kind) && length <= MARKDOWN_RENDER_LIMIT;
}

/** A parsed Markdown source, reusable for any highlight (parsing is the costly part). */
export interface ParsedMarkdown {
  source: string;
  tree: HastRoot;
}

/** Parse `source` as Markdown (CommonMark + GFM), raw HTML turned into text. */
export function parseMarkdown(source: string): ParsedMarkdown {
  const mdast = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  htmlAsText(mdast);
  endAutolinksAtCjkPunctuation(mdast);
  return { source, tree: toHast(mdast) as HastRoot };
}

/**
 * Render parsed Markdown to nodes, marking the characters whose source offsets fall in
 * `highlight` (UTF-16 offsets into the source; null for none).
 */
export function renderParsed(parsed: ParsedMarkdown, highlight: { start: number; end: number } | null = null): MdNode[] {
  const span = highlight && highlight.end > highlight.start ? highlight : null;
  return convertChildren(parsed.tree.children, { source: parsed.source, span, range: [0, parsed.source.length] });
}

/** {@link parseMarkdown} then {@link renderParsed}. */
export function renderMarkdown(source: string, highlight: { start: number; end: number } | null = null): MdNode[] {
  return renderParsed(parseMarkdown(source), highlight);
}

/**
 * A passage quote rendered as Markdown, from its `focus` (the core's offset of its words on the query)
 * when it has one. Shown text that starts inside a code block (`openFence`, from the core) opens it again
 * first, so its code stays code and the prose after the block's closing fence stays prose, as on the page;
 * without it that closing fence would open a block and swallow the prose.
 */
export function renderQuote(text: string, shown: { focus?: number; openFence?: string } = {}): MdNode[] {
  const from = text.slice(shown.focus ?? 0);
  return renderMarkdown(shown.openFence ? `${shown.openFence}\n${from}` : from);
}

/** Raw HTML is shown as the text it is: inline HTML becomes text, block HTML a paragraph of it. */
function htmlAsText(node: MdastRoot | MdastParent): void {
  const inline = PHRASING_PARENTS.has(node.type);
  node.children = node.children.map((child): MdastNodes => {
    if (child.type !== 'html') {
      if ('children' in child) htmlAsText(child);
      return child;
    }
    const text: MdastText = { type: 'text', value: child.value, position: child.position };
    return inline ? text : { type: 'paragraph', children: [text], position: child.position };
  }) as typeof node.children;
}

/** Parents whose children are inline (phrasing) content. */
const PHRASING_PARENTS = new Set([
  'paragraph', 'heading', 'tableCell', 'emphasis', 'strong', 'delete', 'link', 'linkReference',
]);

interface Context {
  source: string;
  span: { start: number; end: number } | null;
  /** The nearest known source range, for text the parser generated without a position. */
  range: [number, number];
}

function convertChildren(children: HastNodes[], ctx: Context): MdNode[] {
  const out: MdNode[] = [];
  for (const child of children) {
    if (child.type === 'text') out.push(...convertText(child, ctx));
    else if (child.type === 'element') out.push(convertElement(child, ctx));
  }
  return out;
}

function rangeOf(node: HastNodes): [number, number] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : [start, end];
}

function convertElement(node: HastElement, ctx: Context): MdElement {
  const range = rangeOf(node);
  const inner = { ...ctx, range: range ?? ctx.range };
  const tag = ALLOWED_TAGS.has(node.tagName) ? node.tagName : 'span';
  const attrs = attrsOf(node);
  const atomic = tag === 'img' || tag === 'hr' || tag === 'input';
  const marked = atomic && !!ctx.span && overlaps(inner.range, ctx.span);
  const [start, end] = range ?? [null, null];
  const element: MdElement = { kind: 'element', tag, attrs, children: [], start, end, marked };
  element.children = convertChildren(node.children, inner);
  if (tag === 'a' && !WEB_LINK.test(String(attrs.href ?? ''))) {
    // Not a web link (javascript:, data:, a path inside the folder, an in-page anchor): plain text.
    element.tag = 'span';
    element.attrs = {};
  }
  return element;
}

/** The few properties worth keeping, as plain strings and booleans. */
function attrsOf(node: HastElement): Record<string, string | boolean> {
  const p = node.properties;
  const attrs: Record<string, string | boolean> = {};
  if (Array.isArray(p.className)) attrs.className = p.className.join(' ');
  if (node.tagName === 'a' && typeof p.href === 'string') attrs.href = p.href;
  if (node.tagName === 'img') {
    attrs.alt = typeof p.alt === 'string' ? p.alt : '';
    if (typeof p.src === 'string') attrs.src = p.src;
  }
  if (node.tagName === 'input') attrs.checked = p.checked === true;
  if ((node.tagName === 'td' || node.tagName === 'th') && typeof p.align === 'string') attrs.align = p.align;
  if (node.tagName === 'ol' && typeof p.start === 'number') attrs.start = String(p.start);
  return attrs;
}

function overlaps(range: [number, number], span: { start: number; end: number }): boolean {
  return range[0] < span.end && span.start < range[1];
}

function convertText(node: HastText, ctx: Context): MdText[] {
  const own = rangeOf(node);
  // Whitespace the converter puts between blocks has no source and no visible effect.
  if (!own && /^\s*$/.test(node.value)) return [];
  if (!ctx.span) return [{ kind: 'text', text: node.value, marked: false }];
  const offsets = alignOffsets(node.value, ctx.source, own ?? ctx.range);
  const out: MdText[] = [];
  let from = 0;
  const inSpan = (i: number) => offsets[i]! >= ctx.span!.start && offsets[i]! < ctx.span!.end;
  for (let i = 1; i <= node.value.length; i++) {
    if (i < node.value.length && inSpan(i) === inSpan(from)) continue;
    out.push({ kind: 'text', text: node.value.slice(from, i), marked: inSpan(from) });
    from = i;
  }
  return out;
}

/**
 * The source offset of each character of `value`, which was rendered from `source[from, to)`.
 * Exact copies map one to one; otherwise characters are matched in order, skipping source
 * characters the renderer dropped (escapes, indentation, `>` markers, entity bodies); a character
 * with no source (a decoded entity) takes the offset where the match stands.
 */
export function alignOffsets(value: string, source: string, [from, to]: [number, number]): number[] {
  const slice = source.slice(from, to);
  const at = slice === value ? 0 : slice.indexOf(value);
  if (at >= 0) return Array.from({ length: value.length }, (_, i) => from + at + i);
  const offsets: number[] = [];
  let j = from;
  for (let i = 0; i < value.length; i++) {
    const k = source.indexOf(value[i]!, j);
    if (k >= 0 && k < to) {
      offsets.push(k);
      j = k + 1;
    } else offsets.push(Math.min(j, to - 1));
  }
  return offsets;
}

/** Plain text of rendered nodes (what a reader sees, without markup). */
export function textOf(nodes: MdNode[]): string {
  const one = (n: MdNode): string =>
    n.kind === 'text' ? n.text : n.tag === 'img' ? String(n.attrs.alt ?? '') : textOf(n.children);
  return nodes.map(one).join('');
}

/** True for page kinds whose text is Markdown source (the others keep their plain rendering). */
export function isMarkdownKind(kind: string): boolean {
  return kind === 'markdown';
}

/** True when a page path names a Markdown file (references know the path, not the kind). */
export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown|mdx)$/i.test(path);
}
