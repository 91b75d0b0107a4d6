/**
 * Markdown → canonical text + headings + front matter. The page keeps the Markdown source as it is
 * (minus the front matter), so a passage cited from the page is the same bytes the user sees in
 * their file; micromark is used only to find where the headings are.
 */
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { parseDocument } from 'yaml';
import type { Heading, ParsedDocument } from '../types';

/** What a Markdown file contributes to a ParsedDocument. */
export type ParsedMarkdown = Pick<ParsedDocument, 'text' | 'title' | 'metadata' | 'headings'>;

/** A metadata value Sift keeps (scope filters need plain, comparable values). */
type MetadataValue = string | number | boolean | string[];

/**
 * Parse Markdown `source` (already decoded, line endings already `\n`). Front matter (`---` YAML at
 * the very start) is cut from the text together with the blank lines after it; heading offsets are
 * shifted to match. Title: front matter `title`, else the first heading, else null.
 */
export function parseMarkdown(source: string): ParsedMarkdown {
  const tree = fromMarkdown(source, {
    extensions: [frontmatter(['yaml']), gfm()],
    mdastExtensions: [frontmatterFromMarkdown(['yaml']), gfmFromMarkdown()],
  });
  const { cut, metadata } = frontMatterOf(tree, source);
  const text = source.slice(cut);
  const headings = headingsOf(tree, source).map((h) => ({ ...h, start: h.start - cut, end: h.end - cut }));
  const fromFrontMatter = metadata.title;
  const title =
    typeof fromFrontMatter === 'string' || typeof fromFrontMatter === 'number'
      ? String(fromFrontMatter).trim() || null
      : null;
  return { text, title: title ?? headings.find((h) => h.text)?.text ?? null, metadata, headings };
}

/** Where the page text starts (after front matter and the blank lines that follow it), and its metadata. */
function frontMatterOf(tree: Root, source: string): { cut: number; metadata: Record<string, MetadataValue> } {
  const first = tree.children[0];
  if (first?.type !== 'yaml' || first.position?.end.offset === undefined) return { cut: 0, metadata: {} };
  const rest = source.slice(first.position.end.offset);
  const blank = /^\n(?:[ \t]*\n)*/.exec(rest);
  return { cut: first.position.end.offset + (blank?.[0].length ?? 0), metadata: metadataOf(first.value) };
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

/** Every heading (ATX or setext, at any depth), spanning its whole source line(s). */
function headingsOf(tree: Root, source: string): Heading[] {
  const found: Heading[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'heading' && node.position?.start.offset !== undefined && node.position.end.offset !== undefined) {
      const lineStart = source.lastIndexOf('\n', node.position.start.offset - 1) + 1;
      const newline = source.indexOf('\n', node.position.end.offset);
      const lineEnd = newline === -1 ? source.length : newline;
      found.push({ start: lineStart, end: lineEnd, level: node.depth, text: plainText(node) });
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return found;
}

/** The readable text of inline Markdown: markup dropped, image alt text kept, whitespace collapsed. */
function plainText(node: Nodes): string {
  const parts: string[] = [];
  const visit = (n: Nodes): void => {
    if (n.type === 'text' || n.type === 'inlineCode') parts.push(n.value);
    else if (n.type === 'image') parts.push(n.alt ?? '');
    else if (n.type === 'break') parts.push(' ');
    else if ('children' in n) for (const child of n.children) visit(child);
  };
  visit(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
