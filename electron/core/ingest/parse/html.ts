/**
 * HTML → the page's main text. Navigation, page chrome and scripts are dropped; `<main>` (or a
 * lone `<article>`) is preferred over the whole body, since that is what a person would call "the
 * page". Blocks become lines and paragraphs; headings become their own lines and are recorded.
 *
 * The page is read from the parser's events with no document tree: a first pass that only names the
 * elements finds the content root, and a second writes what lies inside it. Building the tree cost
 * four times the parse itself, and its speed per MB fell as pages grew.
 */
import { Parser } from 'htmlparser2';
import type { Heading } from '../../store/page-model';
import { TextWriter, type WriterMark } from './html-text';

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
  const reader = new PageReader(contentRoot(html));
  readEvents(html, reader);
  return reader.result();
}

type Attribs = Record<string, string>;

/**
 * The element `htmlToText` writes from, as the number of its start tag in the document (counting
 * from 1): the first `<main>`; else the only `<article>` (several are a listing: keep them all); else
 * the first `<body>`. 0: the whole document.
 */
function contentRoot(html: string): number {
  if (!/<(?:main|article|body)[\s/>]/i.test(html)) return 0;
  let n = 0;
  let main = 0;
  let article = 0;
  let articles = 0;
  let body = 0;
  // Start tags by name only: the parser then builds no attributes (the count is the same as onopentag's).
  const parser = new Parser({
    onopentagname(name) {
      n++;
      if (name === 'main') main ||= n;
      else if (name === 'article') {
        articles++;
        article ||= n;
      } else if (name === 'body') body ||= n;
    },
  });
  parser.write(html);
  parser.end();
  return main || (articles === 1 ? article : 0) || body;
}

/** What a page's reader is handed: elements opening (numbered in document order) and closing, and text. */
interface PageEvents {
  open(name: string, attribs: Attribs, ordinal: number): void;
  close(): void;
  /** A text node, whole. */
  text(data: string): void;
  /** Text inside a CDATA section (`<math>`/`<svg>` content): only an element's full text content counts it. */
  cdata(data: string): void;
}

/**
 * Parse `html` into events as its document tree would hold them: a text node is handed on whole (the
 * parser gives it in pieces), and a comment or processing instruction between two pieces splits them.
 */
function readEvents(html: string, to: PageEvents): void {
  let pending = '';
  let inCdata = false;
  let ordinal = 0;
  const flush = () => {
    if (pending === '') return;
    const data = pending;
    pending = '';
    if (inCdata) to.cdata(data);
    else to.text(data);
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        flush();
        to.open(name, attribs, ++ordinal);
      },
      onclosetag() {
        flush();
        to.close();
      },
      ontext(data) {
        pending += data;
      },
      oncomment: flush,
      onprocessinginstruction: flush,
      oncdatastart() {
        flush();
        inCdata = true;
      },
      oncdataend() {
        flush();
        inCdata = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
}

/** How an element's content is read. */
type Mode =
  /** Outside the content root: not written. */
  | 'outside'
  /** Written: blocks as boundaries, text inline. */
  | 'write'
  /** Collected as the text of a heading or `<pre>` (written when that closes). */
  | 'collect'
  /** Not text at all. */
  | 'skip';

/** An open element as the reader keeps it. */
interface Frame {
  name: string;
  /** The mode of the element's content. */
  mode: Mode;
  /** The boundary its close writes (a block being written). */
  block?: 1 | 2;
  /** Closing it writes what was collected: a heading of this level, or preformatted text (0). */
  collected?: number;
  /** Length of the collected text when it opened (a `<pre>` inside a collection). */
  start: number;
  /** For a block being written: what tells whether it is a navigation bar. */
  bar?: Bar;
  /** A link (`<a href>`) being written. */
  link?: boolean;
}

/** A block being written, as far as telling a navigation bar goes (see PageReader.isNavigationBar). */
interface Bar {
  /** Where the writer stood when it opened. */
  mark: WriterMark;
  /** Links in it and in the blocks inside it that were kept: by their own `rel` or a letter `accesskey`, to a
   *  page the head names `next`, `prev`… (`targets`), or other. */
  navLinks: number;
  targets: number;
  otherLinks: number;
  /** Blocks inside it that were navigation bars. */
  bars: number;
  /** It is a `<table>`. */
  table: boolean;
  /** Its text outside links, that of kept blocks inside it included (up to a bar's length). */
  loose: string;
  /** The block it is in. */
  outer: Bar | null;
}

/** An event held back while the reader decides whether an element is page furniture. */
type HeldEvent =
  | { kind: 'open'; name: string; attribs: Attribs; ordinal: number }
  | { kind: 'close' }
  | { kind: 'text' | 'cdata'; data: string };

/** An element that may be page furniture, and what it holds so far (see widgetAtOpen). */
interface Held {
  test: 'link' | 'copy';
  events: HeldEvent[];
  /** Elements open within it, itself included. */
  depth: number;
  /** All its text (textContent: scripts and CDATA included). */
  text: string;
  holdsCode: boolean;
}

/**
 * What an element's start tag says about it being page furniture: a `<button>` (or role=button) is; an
 * in-page link is when of a permalink class, else its text decides (`link`); a short copy-named element
 * without code is (`copy`: its content decides); nothing else is.
 */
function widgetAtOpen(name: string, attribs: Attribs): 'yes' | 'no' | Held['test'] {
  if (name === 'button' || attribs.role === 'button') return 'yes';
  const cls = attribs.class ?? '';
  if (name === 'a') {
    const href = attribs.href ?? '';
    if (href !== '' && !href.startsWith('#')) return 'no';
    return PERMALINK_CLASS.test(cls) ? 'yes' : 'link';
  }
  if (name === 'pre' || name === 'code' || !(namesCopy(name) || namesCopy(cls))) return 'no';
  return 'copy';
}

/**
 * Whether a held element is page furniture, as far as its content so far tells: true or false once
 * known, null while more content could still change it. `closed`: all of it has been seen.
 */
function heldVerdict(held: Held, closed: boolean): boolean | null {
  if (held.test === 'link') {
    if (PERMALINK_TEXT.test(held.text)) return closed ? true : null;
    if (!SKIP_LINK_START.test(held.text) || held.text.length > WIDGET_TEXT_MAX) return false;
    return closed ? SKIP_LINK.test(held.text) : null;
  }
  if (held.holdsCode || held.text.trim().length > WIDGET_TEXT_MAX) return false;
  return closed ? true : null;
}

/**
 * Writes a page from its events. Where whether an element is furniture depends on its text (see
 * widgetAtOpen), its events are held until the text decides, then either dropped or handed on as if
 * they had just come.
 */
class PageReader implements PageEvents {
  private readonly writer = new TextWriter();
  private readonly stack: Frame[] = [];
  /** Text collected for the heading or `<pre>` being read. */
  private collected = '';
  private held: Held | null = null;
  /** The first `<title>`'s text; `titleDepth` > 0 while inside it, -1 once it closed. */
  private title = '';
  private titleDepth = 0;
  /** Pages the document's `<link rel="next|prev|up…">` name: a link to one of them moves through the manual. */
  private readonly navTargets = new Set<string>();
  /** The innermost block being written (see Bar), and how many links are open around the text. */
  private bar: Bar | null = null;
  private linkDepth = 0;

  constructor(private readonly root: number) {}

  result(): HtmlText {
    // An element still held when the page ends (its end tag never came) is judged on what it holds.
    if (this.held) this.release(heldVerdict(this.held, true)!);
    const title = this.title.replace(/\s+/g, ' ').trim();
    const firstH1 = this.writer.headings.find((h) => h.level === 1)?.text ?? null;
    return { text: this.writer.text, headings: this.writer.headings, title: title || firstH1 };
  }

  open(name: string, attribs: Attribs, ordinal: number): void {
    if (name === 'link' && attribs.href && NAV_REL.test(attribs.rel ?? '')) this.navTargets.add(attribs.href);
    if (this.titleDepth > 0) this.titleDepth++;
    else if (this.titleDepth === 0 && name === 'title') this.titleDepth = 1;
    this.handle({ kind: 'open', name, attribs, ordinal });
  }

  close(): void {
    if (this.titleDepth > 0 && --this.titleDepth === 0) this.titleDepth = -1;
    this.handle({ kind: 'close' });
  }

  text(data: string): void {
    if (this.titleDepth > 0) this.title += data;
    this.handle({ kind: 'text', data });
  }

  cdata(data: string): void {
    if (this.titleDepth > 0) this.title += data;
    this.handle({ kind: 'cdata', data });
  }

  /** Route an event: into the element being held, else to the reader. `checked`: an open already found no furniture. */
  private handle(event: HeldEvent, checked = false): void {
    const held = this.held;
    if (held === null) {
      this.apply(event, checked);
      return;
    }
    held.events.push(event);
    if (event.kind === 'open') {
      held.depth++;
      if (event.name === 'pre' || event.name === 'code') held.holdsCode = true;
    } else if (event.kind === 'close') held.depth--;
    else held.text += event.data;
    const verdict = heldVerdict(held, held.depth === 0);
    if (verdict !== null) this.release(verdict);
  }

  /** End holding: drop the held element with all it held when it is furniture, else hand its events on. */
  private release(furniture: boolean): void {
    const events = this.held!.events;
    this.held = null;
    if (!furniture) events.forEach((e, i) => this.handle(e, i === 0));
  }

  private get mode(): Mode {
    return this.stack[this.stack.length - 1]?.mode ?? (this.root === 0 ? 'write' : 'outside');
  }

  private apply(event: HeldEvent, checked: boolean): void {
    if (event.kind === 'open') this.openElement(event, checked);
    else if (event.kind === 'close') this.closeElement();
    else if (event.kind === 'text') {
      const mode = this.mode;
      if (mode === 'write') {
        this.writer.inline(event.data);
        const bar = this.bar;
        if (bar && this.linkDepth === 0 && bar.loose.length <= NAV_BAR_TEXT_MAX) bar.loose += event.data;
      } else if (mode === 'collect') this.collected += event.data;
    }
  }

  private openElement(event: Extract<HeldEvent, { kind: 'open' }>, checked: boolean): void {
    const { name, attribs } = event;
    let mode = this.mode;
    if (mode === 'outside' && event.ordinal === this.root) mode = 'write';
    if (mode === 'outside' || mode === 'skip') return this.push(name, mode);
    const widget = checked ? 'no' : widgetAtOpen(name, attribs);
    if (mode === 'collect') {
      // A heading's or <pre>'s text: scripts and furniture left out, <br> a newline, and a <pre>'s second
      // <code> (Node's docs put an ES module and a CommonJS example in one <pre>) its own block.
      if (DROPPED.has(name) || widget === 'yes') return this.push(name, 'skip');
      if (widget !== 'no') return this.hold(event, widget);
      if (name === 'br') {
        this.collected += '\n';
        return this.push(name, 'skip');
      }
      const parent = this.stack[this.stack.length - 1]!;
      if (parent.name === 'pre' && name === 'code' && /\S/.test(this.collected.slice(parent.start)) && !this.collected.endsWith('\n')) {
        this.collected += '\n\n';
      }
      return this.push(name, 'collect');
    }
    if (DROPPED.has(name) || 'hidden' in attribs || attribs.role === 'navigation' || this.isPageChrome(name)) {
      return this.push(name, 'skip');
    }
    if (name === 'br') {
      this.writer.lineBreak();
      return this.push(name, 'skip');
    }
    if (widget === 'yes') return this.push(name, 'skip');
    if (widget !== 'no') return this.hold(event, widget);
    const level = /^h([1-6])$/.exec(name)?.[1];
    if (level || name === 'pre') {
      this.collected = '';
      this.stack.push({ name, mode: 'collect', collected: level ? Number(level) : 0, start: 0 });
      return;
    }
    if (name === 'td' || name === 'th') this.writer.separator(' | ');
    const block = BLOCKS.get(name);
    if (!block) {
      const link = name === 'a' && attribs.href !== undefined;
      if (link) this.countLink(attribs);
      this.stack.push({ name, mode: 'write', start: 0, link });
      return;
    }
    this.writer.boundary(block);
    const bar: Bar = { mark: this.writer.mark(), navLinks: 0, targets: 0, otherLinks: 0, bars: 0, table: name === 'table',
      loose: '', outer: this.bar };
    this.bar = bar;
    this.stack.push({ name, mode: 'write', block, start: 0, bar });
  }

  private push(name: string, mode: Mode): void {
    this.stack.push({ name, mode, start: this.collected.length });
  }

  private hold(event: HeldEvent, test: Held['test']): void {
    this.held = { test, events: [event], depth: 1, text: '', holdsCode: false };
  }

  private closeElement(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    if (frame.link) this.linkDepth--;
    if (frame.bar) this.closeBar(frame.bar);
    if (frame.block) this.writer.boundary(frame.block);
    if (frame.collected === undefined) return;
    if (frame.collected > 0) this.writer.heading(frame.collected, this.collected);
    else this.writer.preformatted(this.collected);
    this.collected = '';
  }

  /** Count a link in the innermost block being written. */
  private countLink(attribs: Attribs): void {
    this.linkDepth++;
    const bar = this.bar;
    if (!bar) return;
    if (LETTER_KEY.test(attribs.accesskey ?? '') || NAV_REL.test(attribs.rel ?? '')) bar.navLinks++;
    else if (this.navTargets.has(attribs.href!)) bar.targets++;
    else bar.otherLinks++;
  }

  /** Drop a block that is a navigation bar; else what it holds counts in the block around it. */
  private closeBar(bar: Bar): void {
    const outer = bar.outer;
    this.bar = outer;
    if (this.isNavigationBar(bar)) {
      this.writer.rollback(bar.mark);
      if (outer) outer.bars++;
    } else if (outer) {
      outer.navLinks += bar.navLinks;
      outer.targets += bar.targets;
      outer.otherLinks += bar.otherLinks;
      if (outer.loose.length <= NAV_BAR_TEXT_MAX) outer.loose += ' ' + bar.loose;
    }
  }

  /**
   * A block that only moves between the pages of a manual: "Next: Types, Previous: Simple Example, Up: Using
   * libffi [Index]" (Texinfo), "<< 2.9. Limitations | Up | Home | 3. Advanced Topics >>" (DocBook). Repeated on
   * every page of a manual, such a bar is not what a page says, and "Next: Command Line Options" answered a
   * search for command line options. It holds no other link, no heading and little text, and
   * - two links marked as moving (`rel`, a letter `accesskey`): "<< 2.9. Limitations | Up | 3. Advanced >>";
   * - or one, and besides it only a bar inside it or the bar's own words ("Up", "Next:", "|", "[Index]"):
   *   DocBook's second row "2.9. Limitations | Home | 3. Advanced" with the first row of its table;
   * - or it is a table with such a bar in it: DocBook's header, whose first row is the chapter's title;
   * - or a link known only by its target (the head says that page is next), which may sit in a sentence or
   *   a table of contents, so besides it the bar's own words and nothing else: Texinfo's bottom bar.
   */
  private isNavigationBar(bar: Bar): boolean {
    if (bar.otherLinks > 0 || bar.navLinks + bar.targets + (bar.table ? bar.bars : 0) === 0) return false;
    if (this.writer.headings.length !== bar.mark.headings || this.writer.writtenSince(bar.mark) > NAV_BAR_TEXT_MAX) return false;
    if (bar.navLinks >= 2) return true;
    const ownWordsOnly = NAV_WORDS_ONLY.test(bar.loose);
    if (bar.navLinks === 1) return bar.bars > 0 || ownWordsOnly;
    if (bar.table && bar.bars > 0) return true;
    return ownWordsOnly && NAV_WORD.test(bar.loose);
  }

  /** A `header`/`footer` outside any article, main or section: the site's banner or footer. */
  private isPageChrome(name: string): boolean {
    if (name !== 'header' && name !== 'footer') return false;
    return !this.stack.some((frame) => CONTENT_SECTIONS.has(frame.name));
  }
}

/**
 * Link types (`rel`) of the links between the pages of a manual, as Texinfo and Sphinx write them (on `<a>`, or
 * on the head's `<link>`s, which name the same pages the bars link to). DocBook and
 * Texinfo also give such links a letter `accesskey` (n, p, u, h), which content links never have; Texinfo's
 * menus number theirs 1–9, and a menu is the node's table of contents, which is content.
 */
const NAV_REL = /(?:^|\s)(?:next|prev|previous|up|index|contents|toc|start|first|last|home|top)(?:\s|$)/i;
const LETTER_KEY = /^\p{L}$/u;
/** A navigation bar's own words (Texinfo's "Next: …, Previous: …, Up: … [Index]"), and the marks between them. */
const NAV_WORDS = String.raw`\b(?:next|prev|previous|up|home|top|contents|index)\b`;
const NAV_WORD = new RegExp(NAV_WORDS, 'i');
const NAV_WORDS_ONLY = new RegExp(String.raw`^(?:[\s\p{P}\p{S}]|${NAV_WORDS})*$`, 'iu');
/** Most text a navigation bar holds (link texts included); longer is content. */
const NAV_BAR_TEXT_MAX = 300;

/** What a permalink anchor shows: a mark, not words (`¶`, `#`, `§`, `🔗`, `⚓`, `¤`, `†`-like glyphs). */
const PERMALINK_TEXT = /^[\s¶#§🔗⚓¤#\u{1F517}\uFE0F]*$/u;
/** An in-page link that lets a keyboard skip the site's menus ("Skip to content", Node's docs): not page text. */
const SKIP_LINK = /^\s*(?:skip|jump) to (?:the )?(?:main )?(?:content|navigation|search)\s*$/i;
const SKIP_LINK_START = /^\s*(?:skip|jump)\b/i;
/** Classes of permalink anchors (Sphinx `headerlink`, markdown-it-anchor, Docusaurus `hash-link`, Node's `mark`…). */
const PERMALINK_CLASS = /(?:^|\s)(?:headerlink|header-anchor|anchor|anchorjs-link|anchor-link|hash-link|heading-anchor|permalink|mark)(?:\s|$)/i;
/** Words of the classes and tags of copy-to-clipboard widgets (`copy-button`, `clipboard-copy`, Sphinx's `copybtn`);
 *  `copyright` is not one. */
const COPY_WORDS = new Set(['copy', 'copied', 'clipboard', 'copybtn', 'copybutton', 'clippy']);
const COPY_HINT = /cop|clip/i;

function namesCopy(names: string): boolean {
  // Every copy word holds "cop" or "clip": most names are settled without splitting them.
  if (!COPY_HINT.test(names)) return false;
  return names.split(/[\s_-]+/).some((word) => COPY_WORDS.has(word.toLowerCase()));
}
/** Longest text a copy widget shows ("Copy", "Copy to clipboard", "Copied!"); longer is content. */
const WIDGET_TEXT_MAX = 40;
