/**
 * HTML → the page's main text. Navigation, page chrome and scripts are dropped; `<main>` (or a
 * lone `<article>`) is preferred over the whole body, since that is what a person would call "the
 * page". Blocks become lines and paragraphs; headings become their own lines and are recorded.
 */
import type { AnyNode, Element, Text } from 'domhandler';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import type { Heading } from '../../store/page-model';
import { TextWriter } from './html-text';

/** The text of an HTML document with its headings and title. */
export interface HtmlText {
  text: string;
  headings: Heading[];
  /** `<title>`, else the first `<h1>`; null when neither has text. */
  title: string | null;
}

/** Elements whose content is never page text. `header`/`footer` only when they are page chrome (see below). */
const DROPPED = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'nav', 'aside', 'form', 'iframe', 'object', 'embed',
  'canvas', 'head', 'title', 'meta', 'link',
]);

/** Elements that start a new paragraph (2) or a new line (1). */
const BLOCKS = new Map<string, 1 | 2>([
  ...['p', 'blockquote', 'section', 'article', 'main', 'table', 'ul', 'ol', 'dl', 'figure', 'hr', 'details',
    'address', 'header', 'footer', 'fieldset', 'center', 'body', 'html'].map((name) => [name, 2] as const),
  ...['div', 'li', 'tr', 'dt', 'dd', 'figcaption', 'summary', 'caption', 'legend', 'option'].map(
    (name) => [name, 1] as const,
  ),
]);

/** Elements in which a `header`/`footer` belongs to the content (an article's byline), not to the site. */
const CONTENT_SECTIONS = new Set(['article', 'main', 'section']);

/**
 * The charset an HTML file declares in its first 4 KB (`<meta charset>` or the http-equiv form),
 * or null. Read as Latin-1 because the declaration itself is ASCII in every charset that may declare.
 */
export function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const match = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}

/** Extract the main text, headings and title from an HTML document (entities decoded). */
export function htmlToText(html: string): HtmlText {
  const document = parseDocument(html, { decodeEntities: true });
  const writer = new TextWriter();
  walk(contentRoot(document.children), writer);
  const titleElement = DomUtils.findOne((e) => e.name === 'title', document.children, true);
  const title = titleElement ? DomUtils.textContent(titleElement).replace(/\s+/g, ' ').trim() : '';
  const firstH1 = writer.headings.find((h) => h.level === 1)?.text ?? null;
  return { text: writer.text, headings: writer.headings, title: title || firstH1 };
}

/** `<main>`; else the only `<article>` (several are a listing: keep them all); else `<body>`; else everything. */
function contentRoot(nodes: AnyNode[]): AnyNode[] {
  const byName = (name: string) => (e: Element) => e.name === name;
  const main = DomUtils.findOne(byName('main'), nodes, true);
  if (main) return [main];
  const articles = DomUtils.findAll(byName('article'), nodes);
  if (articles.length === 1) return articles;
  const body = DomUtils.findOne(byName('body'), nodes, true);
  return body ? [body] : nodes;
}

function isElement(node: AnyNode | null): node is Element {
  return node?.type === ElementType.Tag || node?.type === ElementType.Script || node?.type === ElementType.Style;
}

function isText(node: AnyNode): node is Text {
  return node.type === ElementType.Text;
}

function walk(nodes: AnyNode[], writer: TextWriter): void {
  for (const node of nodes) {
    if (isText(node)) writer.inline(node.data);
    else if (isElement(node)) element(node, writer);
  }
}

function element(node: Element, writer: TextWriter): void {
  const name = node.name;
  if (DROPPED.has(name) || 'hidden' in node.attribs || isPageChrome(node)) return;
  if (name === 'br') return writer.lineBreak();
  const level = /^h([1-6])$/.exec(name)?.[1];
  if (isWidget(node)) return;
  if (level) return writer.heading(Number(level), contentText(node));
  if (name === 'pre') return writer.preformatted(contentText(node));
  if (name === 'td' || name === 'th') writer.separator(' | ');
  const block = BLOCKS.get(name);
  if (block) writer.boundary(block);
  walk(node.children, writer);
  if (block) writer.boundary(block);
}

/** What a permalink anchor shows: a mark, not words (`¶`, `#`, `§`, `🔗`, `⚓`, `¤`, `†`-like glyphs). */
const PERMALINK_TEXT = /^[\s¶#§🔗⚓¤#\u{1F517}\uFE0F]*$/u;
/** Classes of permalink anchors (Sphinx `headerlink`, markdown-it-anchor, Docusaurus `hash-link`, Node's `mark`…). */
const PERMALINK_CLASS = /(?:^|\s)(?:headerlink|header-anchor|anchor|anchorjs-link|anchor-link|hash-link|heading-anchor|permalink|mark)(?:\s|$)/i;
/** Words of the classes and tags of copy-to-clipboard widgets (`copy-button`, `clipboard-copy`, Sphinx's `copybtn`);
 *  `copyright` is not one. */
const COPY_WORDS = new Set(['copy', 'copied', 'clipboard', 'copybtn', 'copybutton', 'clippy']);

function namesCopy(names: string): boolean {
  return names.split(/[\s_-]+/).some((word) => COPY_WORDS.has(word.toLowerCase()));
}
/** Longest text a copy widget shows ("Copy", "Copy to clipboard", "Copied!"); longer is content. */
const WIDGET_TEXT_MAX = 40;

/**
 * An element that is page furniture, not text: a `<button>`; a permalink anchor (a link whose whole text is
 * a mark such as `¶` or `#`, or of a permalink class, pointing within the page); a copy-to-clipboard widget
 * (a short element whose tag or class says copy/clipboard). Such text glued `File system#` onto headings and
 * `}copy` onto code.
 */
function isWidget(node: Element): boolean {
  if (node.name === 'button' || node.attribs.role === 'button') return true;
  const cls = node.attribs.class ?? '';
  if (node.name === 'a') {
    const href = node.attribs.href ?? '';
    const text = DomUtils.textContent(node);
    const inPage = href === '' || href.startsWith('#');
    if (inPage && (PERMALINK_TEXT.test(text) || PERMALINK_CLASS.test(cls))) return true;
    return false;
  }
  if (node.name === 'pre' || node.name === 'code' || !(namesCopy(node.name) || namesCopy(cls))) return false;
  // A wrapper around the code it copies is content.
  const holdsCode = DomUtils.findOne((e) => e.name === 'pre' || e.name === 'code', node.children, true) !== null;
  return !holdsCode && DomUtils.textContent(node).trim().length <= WIDGET_TEXT_MAX;
}

/** The text of an element without what is never text (scripts, styles) or only furniture (see isWidget). */
function contentText(node: Element): string {
  let out = '';
  for (const child of node.children) {
    if (isText(child)) out += child.data;
    else if (isElement(child)) {
      if (DROPPED.has(child.name) || isWidget(child)) continue;
      if (child.name === 'br') out += '\n';
      else {
        // Node's docs put the same example twice in one <pre> (an ES module and a CommonJS <code>): one a block.
        if (node.name === 'pre' && child.name === 'code' && out.trim() !== '' && !out.endsWith('\n')) out += '\n\n';
        out += contentText(child);
      }
    }
  }
  return out;
}

/** A `header`/`footer` outside any article, main or section: the site's banner or footer. */
function isPageChrome(node: Element): boolean {
  if (node.name !== 'header' && node.name !== 'footer') return false;
  for (let up = node.parent; up; up = up.parent) {
    if (isElement(up) && CONTENT_SECTIONS.has(up.name)) return false;
  }
  return true;
}
