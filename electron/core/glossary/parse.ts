/**
 * Glossary pages and their entries. A page is a glossary when its file is named `glossary`,
 * `术语表` or `词汇表` (any extension, any folder) or its front matter says `sift: glossary`. Its
 * entries are read from the page's canonical text, so each has the exact `[start, end)` span a
 * citation opens, in three forms:
 *
 * - definition lists: a term line, then `: definition` lines (`Term\n: definition`);
 * - two-column tables: `| term | definition |` rows (a header row and the `---` row skipped); HTML
 *   and Word tables become `term | definition` lines in the canonical text and are read the same way;
 * - bold lines: `**Term**: definition` (also `**Term:** definition`, as list items, with `：`);
 * - in pages whose format has no `**` to see (HTML, Word, PDF: bold is gone from their text), plain
 *   `Term: definition` lines, the term short and without sentence punctuation.
 *
 * Aliases: a parenthesis after the term (`**RRF** (Reciprocal Rank Fusion, 倒数排名融合): …`) and
 * ` / `-separated names (`RRF / 倒数排名融合`). Pure: no database, no file access.
 */
import { linesOf, type TextLine } from '../../../shared/lines';
import { normalizeKey } from './terms';

/** File names (without extension, normalised) that make a page a glossary. */
export const GLOSSARY_NAMES = ['glossary', '术语表', '词汇表'];

/** Longest term kept, in characters; a longer "term" line is prose, not a term. Default 120. */
const MAX_TERM_CHARS = 120;
/** Page kinds whose text has lost bold (parsed from HTML, Word or PDF): `Term: definition` lines are entries there. */
const BOLDLESS_KINDS = new Set(['html', 'docx', 'pdf']);
/** Longest term of a plain `Term: definition` line, in characters and in words: longer is a sentence with a colon. */
const MAX_PLAIN_TERM_CHARS = 60;
const MAX_PLAIN_TERM_WORDS = 4;

/** One entry found in a glossary page's text. */
export interface GlossaryDraft {
  term: string;
  aliases: string[];
  /** The definition as written (Markdown kept). */
  definition: string;
  /** Span of the whole entry (term and definition) in the page's canonical text. */
  start: number;
  end: number;
}

/** True when the file at `relPath` with this front matter is a glossary page. */
export function isGlossaryPage(relPath: string, metadata: Record<string, unknown>): boolean {
  const base = relPath.split(/[\\/]/).pop() ?? '';
  const name = normalizeKey(base.replace(/\.[^.]*$/, ''));
  if (GLOSSARY_NAMES.includes(name)) return true;
  const sift = metadata.sift;
  return typeof sift === 'string' && normalizeKey(sift) === 'glossary';
}

/** The normalised keys of an entry: its term and aliases, each once. */
export function keysOf(entry: Pick<GlossaryDraft, 'term' | 'aliases'>): string[] {
  return [...new Set([entry.term, ...entry.aliases].map(normalizeKey).filter(Boolean))];
}

/** Markup around a term that is not part of it: emphasis, code ticks, a link's URL. */
function plainTerm(raw: string): string {
  let s = raw.trim().replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/^(\*\*|__|\*|_|`)(.+)\1$/s, '$2').trim();
  }
  return s.replace(/\s+/g, ' ');
}

const ALIAS_IN_PARENS = /^(.*?)\s*[(（]([^()（）]+)[)）]\s*$/s;
const NAME_SEPARATOR = /\s+\/\s+|\s*／\s*|\s*[;；]\s*/;
const ALIAS_SEPARATOR = /\s*[,，、;；]\s*|\s+\/\s+|\s*／\s*/;

/** A raw term (maybe with aliases) → the term and its aliases, or null when it is no term. */
function termAndAliases(raw: string, extra = ''): { term: string; aliases: string[] } | null {
  let main = plainTerm(raw);
  const aliases: string[] = [];
  const parens = ALIAS_IN_PARENS.exec(main);
  if (parens && parens[1]) {
    main = parens[1];
    aliases.push(...parens[2]!.split(ALIAS_SEPARATOR));
  }
  if (extra) aliases.push(...extra.split(ALIAS_SEPARATOR));
  const [term, ...others] = main.split(NAME_SEPARATOR).map(plainTerm);
  if (!term || term.length > MAX_TERM_CHARS) return null;
  const all = [...others, ...aliases].map(plainTerm).filter((a) => a && a.length <= MAX_TERM_CHARS);
  const key = normalizeKey(term);
  const unique = [...new Map(all.map((a) => [normalizeKey(a), a])).entries()].filter(([k]) => k !== key).map(([, a]) => a);
  return { term, aliases: unique };
}

/** `**Term**: def`, `**Term** (aliases): def`, `**Term:** def`, optionally a list item; `__` for `**` too. */
const BOLD_ENTRY = /^\s{0,3}(?:[-*+]\s+|\d+[.)]\s+)?(\*\*|__)(.+?)\1\s*(?:[(（]([^()（）]+)[)）])?\s*([:：])?\s*(.*)$/;
const LIST_OR_HEADING = /^\s{0,3}(?:#|[-*+]\s|\d+[.)]\s|>)/;
const DEFINITION_LINE = /^\s{0,3}:[ \t]+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/;
/** Header words of a two-column glossary table with no divider row (an HTML or Word table). */
const HEADER_WORDS = new Set(['term', 'terms', 'name', 'word', 'abbreviation', 'definition', 'meaning', 'description',
  '术语', '名词', '词汇', '词语', '缩写', '定义', '释义', '含义', '解释', '说明', '描述']);

function boldEntry(line: string): { term: string; aliases: string[]; rest: string } | null {
  const m = BOLD_ENTRY.exec(line);
  if (!m) return null;
  let inner = m[2]!;
  let colon = Boolean(m[4]);
  if (/[:：]$/.test(inner)) {
    inner = inner.slice(0, -1);
    colon = true;
  } else if (!colon) return null;
  const names = termAndAliases(inner, m[3] ?? '');
  return names ? { ...names, rest: m[5]!.trim() } : null;
}

/** The cells of a table row, or null when the line is not one. Escaped `\|` stays in its cell. */
function cellsOf(line: string): string[] | null {
  if (!line.includes('|')) return null;
  const cells = line.trim().split(/(?<!\\)\|/).map((c) => c.trim());
  if (line.trim().startsWith('|')) cells.shift();
  if (line.trim().endsWith('|') && !line.trim().endsWith('\\|')) cells.pop();
  return cells;
}

/** A table row as an entry, or null (not two non-empty cells, or a header row). */
function rowEntry(line: string): { term: string; aliases: string[]; definition: string } | null {
  const cells = cellsOf(line);
  if (!cells || cells.length !== 2 || !cells[0] || !cells[1]) return null;
  if (HEADER_WORDS.has(normalizeKey(plainTerm(cells[0]))) && HEADER_WORDS.has(normalizeKey(plainTerm(cells[1])))) return null;
  const names = termAndAliases(cells[0].replace(/\\\|/g, '|'));
  return names ? { ...names, definition: cells[1].replace(/\\\|/g, '|') } : null;
}

/** `Term: definition` (ASCII colon and a space, or `：`), a short term with no sentence punctuation. */
const PLAIN_ENTRY = /^\s{0,3}(?:[-*+•]\s+|\d+[.)]\s+)?([^:：|]{1,120}?)\s*(?::\s+|：\s*)(\S.*)$/;

function plainEntry(line: string): { term: string; aliases: string[]; rest: string } | null {
  const m = PLAIN_ENTRY.exec(line);
  if (!m || m[1]!.length > MAX_PLAIN_TERM_CHARS) return null;
  const bare = m[1]!.replace(/[(（][^)）]*[)）]/g, '').trim();
  if (/[.?!。？！,，;；]/.test(bare) || bare.split(/\s+/).length > MAX_PLAIN_TERM_WORDS) return null;
  const names = termAndAliases(m[1]!);
  return names ? { ...names, rest: m[2]!.trim() } : null;
}

const blank = (line: TextLine | undefined) => line !== undefined && line.text.trim() === '';

/** Lines after a bold entry that continue its definition: up to a blank line or the start of anything else. */
function continuation(lines: TextLine[], from: number, plain: boolean): number {
  let i = from;
  while (i < lines.length) {
    const t = lines[i]!.text;
    if (!t.trim() || LIST_OR_HEADING.test(t) || FENCE.test(t) || boldEntry(t) || cellsOf(t) || (plain && plainEntry(t))) break;
    i++;
  }
  return i;
}

/** A definition list entry whose term is line `i`: its definition lines, and the index after them; or null. */
function definitionEntry(lines: TextLine[], i: number): { definition: string; next: number } | null {
  let j = i + 1;
  if (blank(lines[j]) && lines[j + 1] && DEFINITION_LINE.test(lines[j + 1]!.text)) j++;
  if (!lines[j] || !DEFINITION_LINE.test(lines[j]!.text)) return null;
  const parts: string[] = [];
  while (j < lines.length) {
    const t = lines[j]!.text;
    const def = DEFINITION_LINE.exec(t);
    if (def) parts.push(def[1]!.trim());
    else if (/^(?: {2,}|\t)\S/.test(t) && parts.length > 0) parts[parts.length - 1] += ` ${t.trim()}`;
    else if (blank(lines[j]) && lines[j + 1] && DEFINITION_LINE.test(lines[j + 1]!.text)) {
      j++;
      continue;
    } else break;
    j++;
  }
  return { definition: parts.join('\n'), next: j };
}

/**
 * Every entry of a glossary page's canonical text, in order. Code blocks are skipped. `kind`: the
 * page's kind (default `markdown`); `html`, `docx` and `pdf` pages also have plain `Term: definition` entries.
 */
export function parseGlossary(text: string, kind = 'markdown'): GlossaryDraft[] {
  const plain = BOLDLESS_KINDS.has(kind);
  const lines = linesOf(text);
  const entries: GlossaryDraft[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (FENCE.test(line.text)) inFence = !inFence;
    if (inFence || FENCE.test(line.text) || !line.text.trim()) {
      i++;
      continue;
    }
    const bold = boldEntry(line.text) ?? (plain ? plainEntry(line.text) : null);
    if (bold) {
      const next = continuation(lines, i + 1, plain);
      const more = lines.slice(i + 1, next).map((l) => l.text.trim());
      const definition = [bold.rest, ...more].filter(Boolean).join('\n');
      if (definition) entries.push({ term: bold.term, aliases: bold.aliases, definition, start: line.start, end: lines[next - 1]!.end });
      i = next;
      continue;
    }
    if (TABLE_DIVIDER.test(line.text)) {
      // The row just above was the table's header, not an entry.
      const last = entries.at(-1);
      if (last && i > 0 && last.start === lines[i - 1]!.start) entries.pop();
      i++;
      continue;
    }
    const row = rowEntry(line.text);
    if (row) {
      entries.push({ ...row, start: line.start, end: line.end });
      i++;
      continue;
    }
    const listed = LIST_OR_HEADING.test(line.text) || DEFINITION_LINE.test(line.text) ? null : definitionEntry(lines, i);
    const names = listed ? termAndAliases(line.text) : null;
    if (listed && names) {
      entries.push({ ...names, definition: listed.definition, start: line.start, end: lines[listed.next - 1]!.end });
      i = listed.next;
      continue;
    }
    i++;
  }
  return entries;
}
