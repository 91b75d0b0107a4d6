/**
 * Section titles of plain text. Manuals, RFCs, runbooks and READMEs written as `.txt` (or with no extension:
 * `README.Debian`) have sections a reader sees at once, but without them a page was cut into windows of
 * ~4,000 characters that ignored them: Vim's options.txt (414 KB) had 116 sections with no heading, so an
 * option's definition could be split between two chunks and no passage said which part of the manual it
 * came from. The text is kept as it is; only headings are read, by the conventions plain text uses.
 *
 * A text written as Markdown (notes kept as `.txt`) is read by its `#` headings alone (see markdownTitles).
 * Otherwise:
 * - **An underlined title** (a line after a blank line, then a line of one repeated `= - ~ ^ * + #`, at least
 *   3 long and at least half as wide as the title), optionally overlined too. Levels follow the order in
 *   which the underline styles first appear, as in reStructuredText. One that opens the text titles the page.
 * - **A title after a rule**: a line of at least 10 of one of `= - * # _ ~` across the page, then (after at
 *   most one blank line) one short line standing alone (a blank line, another rule or the end after it),
 *   not ending in a full stop, colon, semicolon or comma (a sentence, what leads into a quoted licence, code).
 *   Vim's help: `====…` then `1. Using QuickFix commands  *quickfix*`. Level 1, or its number's depth.
 * - **A numbered title** standing alone after a blank line: `4.4 Changing tabs`, `3.2.  Private Address
 *   Space`. It must read as a title (a capital first, at most 10 words, no full stop or colon at the end),
 *   stand alone (a blank line after it) or carry Vim's tags, so it is not the first line of a numbered paragraph,
 *   and the text must hold at least two of them: one numbered line on its own is a list item. Level: the
 *   number's depth; numbering that starts again inside a section is one level down.
 * - **A title in capitals** standing alone after a blank line: `USING REGISTERS`, `DESCRIPTION`. Two to
 *   50 characters of capitals, digits, spaces and `- & / '`, at most 6 words, not followed by more
 *   capitals. It sits one level below the title before it (a capitals title after a capitals title is its
 *   sibling), or at level 1 when none precedes it.
 * - **A title copied from a web page** with its permalink mark, `¶` at its end, standing alone: level 1 when it
 *   opens the text (it then titles the page), else 2.
 * - Org files' own headlines: `*`, `**` … at the start of a line, then a space; `#+TITLE:` titles the page.
 *
 * A title's text drops Vim's help tags (`*quickfix*`; a leading tag that is a number stays: `*10.5*`), its fold
 * marker (`{{{1`), the `~` Vim ends a header with, and the `#` of a comment banner (`# FTP service #` between lines
 * of `#`). Words spaced into columns by tabs or 3+ spaces are a table's header row, not a title.
 * Lines holding a `|link|` reference are a table of contents (or a table's row), not titles.
 */
import type { Heading } from '../../store/page-model';
import { LineOffsets } from './line-offsets';

/** A title is at most this wide, once its tags are dropped. */
const MAX_TITLE = 72;
/** An underline: one character repeated, from the start of the line. */
const UNDERLINE = /^([=\-~^*+#])\1{2,}\s*$/;
/** A rule across the page, which starts a new part. */
const RULE = /^\s*([=\-*#_~])\1{9,}\s*$/;
/** A numbered title: `4.4 Changing tabs`, `3.2.  Private Address Space`. */
const NUMBERED = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t]+(\S.*)$/;
/** A title in capitals (letters of any script that has case, digits, spaces and `- & / '`). */
const CAPITALS = /^\p{Lu}[\p{Lu}\d '&/-]*[\p{Lu}\d]$/u;
/** An Org headline. */
const ORG = /^(\*{1,6})[ \t]+(\S.*)$/;
/** Vim's help tags at the end of a line. */
const TAGS_AT_END = /(?:\s+\*[^*\s]+\*)+\s*$/;
/** A line of Vim's help tags and nothing else. */
const TAGS_ONLY = /^(?:\s*\*[^*\s]+\*)+\s*$/;
/** A leading Vim tag: a section's number (`*10.5*	Visual block mode`), kept, or a name (`*Q_lr*`), dropped. */
const LEADING_TAG = /^\*([^*\s]+)\*\s+/;
/** A `|link|` reference (a table of contents entry, Vim's "Next chapter: |usr_25.txt|") or a table's cell. */
const LINK = /\|[^|\s]+\|/;
/** Characters an underline or a rule is made of: a line starting with none of them is neither. */
const RULE_CHARS = new Set([...'=-~^*+#_'].map((c) => c.charCodeAt(0)));

/**
 * The lines of a text by number, each read only when a rule asks for it: most lines are passed over by
 * a look at their first character and their neighbours' (a line after a line of text is no title unless
 * an underline follows it), so a large file costs a scan for its newlines and little more.
 */
class Lines extends LineOffsets {
  /** True for a line of whitespace only, and outside the text. */
  blank(i: number): boolean {
    if (i < 0 || i >= this.count) return true;
    for (let at = this.starts[i]!, end = this.end(i); at < end; at++) {
      const c = this.text.charCodeAt(at);
      if (c !== 32 && c !== 9 && c !== 12 && c !== 11) return false;
    }
    return true;
  }

  /**
   * True when line `i` can be an underline or a rule: its first character other than a space is one of theirs.
   * Also the first test for an Org headline (`*`) and a Markdown heading (`#`).
   */
  ruleLike(i: number): boolean {
    return RULE_CHARS.has(this.firstMark(i));
  }

  /** True when line `i` can open or close a code fence: its first character other than a space is a backtick or `~`. */
  fenceLike(i: number): boolean {
    const c = this.firstMark(i);
    return c === 96 || c === 126;
  }

  /** The code of line `i`'s first character other than a space or tab (NaN past its end or outside the text). */
  private firstMark(i: number): number {
    if (i < 0 || i >= this.count) return NaN;
    let at = this.starts[i]!;
    while (this.text.charCodeAt(at) === 32 || this.text.charCodeAt(at) === 9) at++;
    return this.text.charCodeAt(at);
  }
}

/** The width of a line in columns (a CJK character takes two), which a title's underline should reach. */
export function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  return n;
}

/** A line's title text: tags dropped, a leading tag kept as a number, spaces collapsed; null when it cannot be a title
 *  (no letter, too wide, or words spaced into columns). */
function titleText(line: string): string | null {
  if (line.trim() === '' || /^\s/.test(line) || line.startsWith('#!') || LINK.test(line)) return null;
  const text = line
    .replace(/\s*(?:\{\{\{|\}\}\})\d*\s*$/, '') // a Vim fold marker
    .replace(TAGS_AT_END, '')
    .replace(LEADING_TAG, (_m, tag: string) => (/^\d+(\.\d+)*$/.test(tag) ? `${tag} ` : ''))
    .replace(/\s+~$/, '')
    .replace(/^#+\s+|\s+#+$/g, '')
    .trim();
  // Words spaced into columns are a table's header row (`tag  command  action in Normal mode`).
  if (text === '' || !/\p{L}/u.test(text) || /\S(?:[ \t]*\t[ \t]*| {3,})\S/.test(text) || columns(text) > MAX_TITLE) return null;
  return text.replace(/\s+/g, ' ');
}

/** What a centred title never holds: a list item's mark first, or the braces and operators of code. */
const NOT_CENTRED = /^\s*(?:[-*+•o]\s)|[{}[\];=<>$`|\\]/;

/**
 * A title set in the middle of the line under a rule, as Vim's tutor sets each lesson's
 * (`~~~…`, then tabs and "Lesson 1.3: TEXT EDITING - DELETION"): indented further than the rule, with no
 * list mark and nothing of code. Null otherwise: a line indented as far as its rule is a block's
 * (a test run's "Ran 2 tests" under its dashes), and an indented line elsewhere is a quote or code.
 */
function centredTitle(line: string, rule: string): string | null {
  const indent = (l: string) => columns(l.slice(0, l.length - l.trimStart().length).replace(/\t/g, ' '.repeat(8)));
  if (indent(line) <= indent(rule) || NOT_CENTRED.test(line)) return null;
  return titleText(line.trim());
}

interface Found {
  /** The title's line number. */
  line: number;
  /** A title that names the page when it opens the text (underlined, overlined, marked ¶, or Markdown's `#`). */
  names?: true;
  /** An overlined title's first line, the overline (else the title's own line opens it). */
  from?: number;
  text: string;
  /** Level, or null for a title in capitals (placed under the title before it). */
  level: number | null;
}

/**
 * The section titles of a plain text (see the module comment), offsets into `text`, and the page's title:
 * an underlined (or overlined) title that opens the text, as a Markdown page is titled by its opening
 * `Title\n=====` (git's release notes: "Git v2.34.4 Release Notes", not "2.34.4"), or an Org file's
 * `#+TITLE:`; null otherwise (the file name names the page).
 */
export function plainHeadings(text: string, org = false): { headings: Heading[]; title: string | null } {
  const lines = new Lines(text);
  const found = org ? orgTitles(lines) : titles(lines);
  const first = found[0];
  // A sentence (`# This file is generated by gyp; do not edit.`) is a comment, not a name.
  const opens = first?.names === true && first.level === 1 && !/[.;:,]$/.test(first.text) && text.slice(0, lines.start(first.from ?? first.line)).trim() === '';
  const title = org ? (/^#\+title:[ \t]*(\S.*)$/im.exec(text.slice(0, 4096))?.[1]?.trim() ?? null) : opens ? first.text : null;
  return { headings: headingsOf(lines, found), title };
}

function headingsOf(lines: Lines, found: Found[]): Heading[] {
  const headings: Heading[] = [];
  let previous: { level: number; capitals: boolean } | null = null;
  const under = (p: { level: number; capitals: boolean } | null): number => (p ? (p.capitals ? p.level : Math.min(p.level + 1, 6)) : 1);
  for (const f of found) {
    const level: number = f.level ?? under(previous);
    previous = { level, capitals: f.level === null };
    const line = lines.at(f.line);
    const lead = line.length - line.trimStart().length;
    const start = lines.start(f.line) + lead;
    headings.push({ start, end: start + line.trim().length, level, text: f.text });
  }
  return headings;
}

function orgTitles(lines: Lines): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < lines.count; i++) {
    const m = lines.ruleLike(i) ? ORG.exec(lines.at(i)) : null;
    const text = m ? m[2]!.replace(/\s+:[\w@#%:]+:\s*$/, '').trim() : '';
    if (m && text !== '') out.push({ line: i, text, level: m[1]!.length });
  }
  return out;
}

/** A Markdown heading: `## 4.1 纯改 prompt`. */
const ATX = /^(#{1,6})[ \t]+(\S.*?)(?:[ \t]+#+)?[ \t]*$/;

/**
 * Markdown's `#` headings in a text file written as Markdown: at least two of them outside code fences, each
 * after a blank line and not heading a block of `#` lines, one of `##` or deeper (a lone `# comment` is a
 * comment), and no `#!` first line (a script's comments). An opening
 * `# Title` names the page, as in a Markdown file. Null when it is not such a text.
 */
function markdownTitles(lines: Lines): Found[] | null {
  if (lines.at(0).startsWith('#!')) return null;
  const out: Found[] = [];
  let deeper = false;
  let fence: string | null = null;
  for (let i = 0; i < lines.count; i++) {
    // A `# comment` inside a fenced code block is code.
    const mark = lines.fenceLike(i) ? (/^ {0,3}(`{3,}|~{3,})/.exec(lines.at(i))?.[1] ?? null) : null;
    if (mark && (fence === null || (mark[0] === fence[0] && mark.length >= fence.length))) {
      fence = fence === null ? mark : null;
      continue;
    }
    const m = fence === null && lines.ruleLike(i) ? ATX.exec(lines.at(i)) : null;
    if (!m) continue;
    // After a blank line, and not the first of a block of `#` lines (a licence in comments).
    const next = lines.at(i + 1);
    const standsApart = (i === 0 || lines.blank(i - 1)) && (!next.startsWith('#') || ATX.test(next));
    const text = standsApart ? titleText(m[2]!) : null;
    if (!text) continue;
    out.push({ line: i, text, level: m[1]!.length, names: true });
    if (m[1]!.length > 1) deeper = true;
  }
  return out.length >= 2 && deeper ? out : null;
}

/** A title marked as a web page marks it, copied with its text: Sphinx's permalink `¶` at the end. */
const PILCROW = /[ \t]*¶[ \t]*$/;

function titles(lines: Lines): Found[] {
  const markdown = markdownTitles(lines);
  if (markdown) return markdown;
  const rule = (i: number) => lines.ruleLike(i) && RULE.test(lines.at(i));
  const underline = (i: number) => (lines.ruleLike(i) ? UNDERLINE.exec(lines.at(i)) : null);
  // A line stands alone when a blank line, a rule or the end follows it.
  const alone = (i: number) => lines.blank(i + 1) || rule(i + 1);
  const after = (i: number) => lines.blank(i - 1) || rule(i - 1);
  const styles: string[] = [];
  const out: Found[] = [];
  const numbered: Found[] = [];
  for (let i = 0; i < lines.count; i++) {
    // Overline, title, underline.
    const over = lines.blank(i - 1) ? underline(i) : null;
    if (over && i + 2 < lines.count && lines.at(i + 2).trimEnd() === lines.at(i).trimEnd()) {
      const text = titleText(lines.at(i + 1).trim());
      if (text) {
        out.push({ line: i + 1, text, level: styleLevel(`${over[1]}/over`, styles), names: true, from: i });
        i += 2;
        continue;
      }
    }
    // Title and underline, at least half as wide as the title.
    const under = lines.blank(i - 1) && !lines.blank(i) ? underline(i + 1) : null;
    if (under && !UNDERLINE.test(lines.at(i))) {
      const line = lines.at(i);
      const text = titleText(line);
      if (text && !/[,;]$/.test(text) && lines.at(i + 1).trimEnd().length * 2 >= columns(line.trimEnd())) {
        out.push({ line: i, text, level: styleLevel(under[1]!, styles), names: true });
        i += 1;
        continue;
      }
    }
    // A title after a rule (and at most one blank line), standing alone.
    if (rule(i)) {
      const at = lines.blank(i + 1) ? i + 2 : i + 1;
      const text = at < lines.count && !rule(at) ? titleText(lines.at(at)) ?? centredTitle(lines.at(at), lines.at(i)) : null;
      if (text && !/[.:;,。：；，]$/.test(text) && alone(at) && !underline(at + 1)) {
        const n = NUMBERED.exec(text);
        out.push({ line: at, text, level: n ? depth(n[1]!) : 1 });
        i = at;
        continue;
      }
    }
    if (lines.blank(i) || !after(i)) continue;
    const line = lines.at(i);
    // A title copied from a web page with its permalink mark: the first one opening the text names the page.
    if (PILCROW.test(line) && alone(i)) {
      const text = titleText(line.replace(PILCROW, ''));
      if (text) out.push({ line: i, text, level: i === firstWords(lines) ? 1 : 2, names: true });
      continue;
    }
    const text = titleText(line);
    if (!text) continue;
    const n = NUMBERED.exec(text);
    if (n) {
      // Standing alone or tagged (Vim), so not the first line of a numbered paragraph.
      const tagged = TAGS_AT_END.test(line) || TAGS_ONLY.test(lines.at(i + 1));
      if ((alone(i) || tagged) && readsAsTitle(n[2]!)) numbered.push({ line: i, text, level: depth(n[1]!) });
      continue;
    }
    if (capitalsTitle(text) && !capitalsTitle(lines.at(i + 1).trim())) out.push({ line: i, text, level: null });
  }
  // One numbered line on its own is an item of a list, not a title (numbered titles after rules count).
  if (numbered.length + out.filter((f) => NUMBERED.test(f.text)).length >= 2) out.push(...numbered);
  return nestRestarts(out.sort((a, b) => a.line - b.line));
}

/** The number of the first line holding anything but whitespace. */
function firstWords(lines: Lines): number {
  let i = 0;
  while (i < lines.count && lines.blank(i)) i++;
  return i;
}

/**
 * Numbering that starts again inside a section is a list of sub-sections: Vim's change.txt numbers its
 * registers 1–10 inside "5. Copying and moving text". A top number that goes back is placed one level
 * down, until the top numbering goes on (`6.` after `5.`).
 */
function nestRestarts(found: Found[]): Found[] {
  let top: number | null = null;
  let nested = false;
  return found.map((f) => {
    const m = /^(\d+)\.? /.exec(f.text);
    if (!m || f.level !== 1) return f;
    const n = Number(m[1]);
    if (top === null || n === top + 1 || (!nested && n > top)) {
      top = n;
      nested = false;
      return f;
    }
    nested = true;
    return { ...f, level: 2 };
  });
}

/** A numbered line's words read as a title: a capital first, at most 10 words, no full stop or colon at the end. */
function readsAsTitle(words: string): boolean {
  return /^[\p{Lu}\d]/u.test(words) && !/[.,;:]$/.test(words) && words.split(/\s+/).length <= 10;
}

/** A title in capitals: 2–50 characters, at most 6 words, at least 2 letters, no key name (`CTRL-W`). */
function capitalsTitle(text: string): boolean {
  return (
    text.length <= 50 &&
    CAPITALS.test(text) &&
    text.split(' ').length <= 6 &&
    (text.match(/\p{Lu}/gu)?.length ?? 0) >= 2 &&
    !/-\p{Lu}(?![\p{Lu}\d])/u.test(text)
  );
}

const depth = (number: string) => Math.min(number.split('.').length, 6);

/** The level of an underline style: the order in which the styles first appear (`styles`, added to), at most 6. */
export function styleLevel(style: string, styles: string[]): number {
  if (!styles.includes(style)) styles.push(style);
  return Math.min(styles.indexOf(style) + 1, 6);
}
