/**
 * Markdown → canonical text + headings + front matter. The page keeps the Markdown source as it is
 * (minus the front matter), so a passage cited from the page is the same bytes the user sees in
 * their file; markdown-it is used only to find where the headings are.
 *
 * Speed matters here (every Markdown file of a knowledge base passes through): only the block
 * structure is parsed, and inline Markdown is parsed for heading contents alone, never for the
 * paragraphs around them.
 */
import markdownIt, { type Env, type MarkdownIt, type Token } from 'markdown-it';
import { DomUtils, parseDocument as parseHtml } from 'htmlparser2';
import { parseDocument } from 'yaml';
import type { Heading } from '../../store/page-model';
import type { ParsedDocument } from '../types';

/** What a Markdown file contributes to a ParsedDocument. */
export type ParsedMarkdown = Pick<ParsedDocument, 'text' | 'title' | 'metadata' | 'headings'>;

/** A metadata value Sift keeps (scope filters need plain, comparable values). */
type MetadataValue = string | number | boolean | string[];

/**
 * One shared parser: CommonMark with raw HTML recognised (a `#` line inside an HTML block stays
 * HTML), tables and `~~strike-through~~` — markdown-it's defaults. GFM extras it lacks (footnote
 * definitions as containers, single-`~` strike-through) only change headings in rare corner cases
 * and are deliberately not re-implemented here.
 */
const markdown = createParser();

function createParser(): MarkdownIt {
  const md = markdownIt('default', { html: true, linkify: false, typographer: false });
  // Paragraphs and table cells are never inline-parsed; headings are, one by one, in headingText.
  md.core.ruler.disable(['inline', 'text_join']);
  // Heading text is read, not rendered: keep every link's text (even a `javascript:` one) and
  // autolinks exactly as written rather than URL-decoded.
  md.validateLink = () => true;
  md.normalizeLinkText = (url) => url;
  return md;
}

/**
 * Parse Markdown `source` (already decoded, line endings already `\n`). Front matter (`---` YAML at
 * the very start) is cut from the text together with the blank lines after it; heading offsets are
 * counted in the returned text. Title: front matter `title`, else the first level-1 heading (`#`,
 * `===` or an HTML `<h1>`), if no other heading comes before it, that has text once badges, images and
 * link URLs are gone, else null — never a level-2 heading, which names a part ("Installation",
 * "Contents"), not the page.
 */
export function parseMarkdown(source: string): ParsedMarkdown {
  const front = frontMatterOf(source);
  const text = front ? source.slice(front.cut) : source;
  const metadata = front ? metadataOf(front.yaml) : {};
  const { headings, firstH1 } = headingsOf(text);
  const fromFrontMatter = metadata.title;
  const title =
    typeof fromFrontMatter === 'string' || typeof fromFrontMatter === 'number'
      ? String(fromFrontMatter).trim() || null
      : null;
  return { text, title: title ?? firstH1, metadata, headings };
}

/** A front matter fence line: exactly three dashes, then nothing but spaces or tabs. */
const FENCE = /^---[ \t]*$/;

/** The line break after the closing fence and the blank lines that follow it, cut with the front matter. */
const BLANK_AFTER = /\n(?:[ \t]*\n)*/y;

/**
 * Front matter is a fence convention, not a format: a fence line at the very start of the file,
 * followed by a line break, then YAML lines up to the next fence line (which may end the file).
 * No closing fence means no front matter: the whole file is Markdown. Returns the YAML and where
 * the page text starts (after the closing fence and the blank lines after it), or null.
 */
function frontMatterOf(source: string): { yaml: string; cut: number } | null {
  if (!source.startsWith('---')) return null;
  const openEnd = source.indexOf('\n');
  if (openEnd === -1 || !FENCE.test(source.slice(0, openEnd))) return null;
  let lineStart = openEnd + 1;
  for (;;) {
    const newline = source.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? source.length : newline;
    if (FENCE.test(source.slice(lineStart, lineEnd))) {
      const yaml = lineStart > openEnd + 1 ? source.slice(openEnd + 1, lineStart - 1) : '';
      BLANK_AFTER.lastIndex = lineEnd;
      const blank = BLANK_AFTER.exec(source);
      return { yaml, cut: lineEnd + (blank?.[0].length ?? 0) };
    }
    if (newline === -1) return null;
    lineStart = newline + 1;
  }
}

/**
 * Front matter YAML → metadata: scalars and lists of scalars (as strings) are kept; nested maps,
 * nulls and non-finite numbers are dropped. Broken YAML gives no metadata rather than no page.
 */
export function metadataOf(yamlSource: string): Record<string, MetadataValue> {
  let data: unknown;
  try {
    const doc = parseDocument(yamlSource);
    if (doc.errors.length > 0) return {};
    data = doc.toJS();
  } catch {
    return {}; // e.g. an alias bomb refused by the YAML parser
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const out: Record<string, MetadataValue> = {};
  for (const [key, value] of Object.entries(data)) {
    const kept = keptValue(value);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function keptValue(value: unknown): MetadataValue | undefined {
  if (isScalar(value)) return value;
  if (Array.isArray(value) && value.every(isScalar)) return value.map(String);
  return undefined;
}

/**
 * Every heading (ATX or setext, at any depth: in block quotes and list items too), spanning its
 * whole source line(s): from the start of its first line to the end of its last, without the `\n`;
 * and the title the first level-1 heading gives (see parseMarkdown), or null. Only a level-1 heading
 * before every other heading can be the title.
 */
function headingsOf(text: string): { headings: Heading[]; firstH1: string | null } {
  // The env collects link reference definitions, so `# [name]` reads like the document defines it.
  const env: Env = {};
  const tokens = markdown.parse(text, env);
  const found: Heading[] = [];
  let h1: string | null = null;
  // A level-1 heading after a lower one is a section (zustand's "# Recipes" after its "##" intro).
  let pastTitle = false;
  let lines: LineStarts | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    if (open.type === 'html_block' && h1 === null && !pastTitle) h1 = htmlH1Title(open.content);
    if (open.type !== 'heading_open' || !open.map) continue;
    lines ??= lineStarts(text);
    const [first, afterLast] = open.map;
    const content = tokens[i + 1]?.content ?? '';
    found.push({
      start: lines.startOf(first),
      end: lines.endOf(afterLast - 1),
      level: Number(open.tag.slice(1)),
      text: headingText(content, env),
    });
    if (open.tag === 'h1' && h1 === null && !pastTitle) h1 = titleText(content, env);
    if (open.tag !== 'h1') pastTitle = true;
  }
  // The first level-1 heading with text decides: a part name there means no title from headings.
  return { headings: found, firstH1: h1 && !PART_NAMES.has(h1.toLowerCase()) ? h1 : null };
}

/** Inline tokens whose content is title text (entities arrive decoded as `text_special`). */
const TITLE_TEXT = new Set(['text', 'text_special', 'code_inline']);

/** Separators left at either end once badges are gone (`name · [![ci](…)]`). */
const TITLE_EDGES = /^[\s|·•:–—-]+|[\s|·•:–—-]+$/g;

/**
 * Level-1 headings that name a part of a document, not the document: READMEs that use `#` for every
 * section (bluebird's first one is "Introduction") would otherwise be titled after their first part.
 */
const PART_NAMES = new Set([
  'introduction', 'intro', 'overview', 'contents', 'table of contents', 'toc', 'installation', 'install',
  'usage', 'getting started', 'quick start', 'quickstart', 'about', 'readme', 'license', 'features',
  '简介', '介绍', '概述', '目录', '安装', '使用', '用法', '快速开始', '快速入门',
]);

function cleanTitle(raw: string): string | null {
  return raw.replace(/\s+/g, ' ').replace(TITLE_EDGES, '') || null;
}

/**
 * A level-1 heading as a page title: link texts and entities (decoded) kept; images, badges, raw
 * HTML tags and autolinked URLs dropped. Null when nothing is left (a logo-only heading).
 */
function titleText(content: string, env: Env): string | null {
  if (content === '') return null;
  const tokens: Token[] = [];
  markdown.inline.parse(content, markdown, env, tokens);
  let out = '';
  let inAutolink = false;
  for (const token of tokens) {
    if (token.type === 'link_open') inAutolink = token.markup === 'autolink';
    else if (token.type === 'link_close') inAutolink = false;
    else if (inAutolink) continue;
    else if (TITLE_TEXT.has(token.type)) out += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') out += ' ';
  }
  return cleanTitle(out);
}

/** The text of the first `<h1>` in a raw HTML block (READMEs centre their title this way), or null. */
function htmlH1Title(html: string): string | null {
  if (!/<h1[\s>]/i.test(html)) return null;
  const h1 = DomUtils.findOne((e) => e.name === 'h1', parseHtml(html, { decodeEntities: true }).children, true);
  // textContent skips <img>, so a logo inside the heading leaves only the name.
  return h1 ? cleanTitle(DomUtils.textContent(h1)) : null;
}

/** Where each line of a text starts and ends, by 0-based line number. */
interface LineStarts {
  startOf(line: number): number;
  endOf(line: number): number;
}

/** Builds the line table once per file, and only for files that have headings. */
function lineStarts(text: string): LineStarts {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const startOf = (line: number): number => starts[Math.min(line, starts.length - 1)]!;
  const endOf = (line: number): number => (line + 1 < starts.length ? starts[line + 1]! - 1 : text.length);
  return { startOf, endOf };
}

/** The readable text of a heading's inline Markdown: markup dropped, code and image alt text kept, whitespace collapsed. */
function headingText(content: string, env: Env): string {
  if (content === '') return '';
  const tokens: Token[] = [];
  markdown.inline.parse(content, markdown, env, tokens);
  return plainText(tokens, false).replace(/\s+/g, ' ').trim();
}

/**
 * Text, escaped characters, entities and inline code keep their (decoded) characters; an image
 * gives its alt text, unless it is a link's (a badge, `[![Build Status](…)](…)`, which named every
 * passage of better-sqlite3's README "better-sqlite3 Build Status › …"). Inside an alt text, raw HTML
 * is kept and a hard break adds nothing, as an image description is plain text; elsewhere raw HTML
 * is dropped and a hard break is a space.
 */
function plainText(tokens: Token[], inAlt: boolean): string {
  let out = '';
  let links = 0;
  for (const token of tokens) {
    switch (token.type) {
      case 'link_open':
        links++;
        break;
      case 'link_close':
        links--;
        break;
      case 'text':
      case 'text_special':
      case 'code_inline':
        out += token.content;
        break;
      case 'softbreak':
        out += '\n';
        break;
      case 'hardbreak':
        out += inAlt ? '' : ' ';
        break;
      case 'html_inline':
        if (inAlt) out += token.content;
        break;
      case 'image':
        if (links === 0) out += plainText(token.children ?? [], true);
        break;
    }
  }
  return out;
}
