/**
 * reStructuredText section titles (issue #25 item 8): a line of text underlined — and optionally overlined —
 * by a line of one repeated punctuation character (`=`, `-`, `~`, `^`, `*` …). The text of the file is kept
 * as it is (an .rst page is plain text with line numbers); only its headings and title are read: the level
 * of a title is the order in which its adornment style (character, with or without overline) first
 * appears, as docutils does, and the page's title is the first one.
 */
import { linesOf as lineSpans, type TextLine } from '../../../../shared/lines';
import type { Heading } from '../../store/page-model';
import { columns, styleLevel } from './plain-headings';

/** What reStructuredText adorns titles with (docutils' recommended set and the rest of ASCII punctuation). */
const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;

/** The lines of `text`, a carriage return before a newline left out of their text. */
function linesOf(text: string): TextLine[] {
  return lineSpans(text).map((line) => ({ ...line, text: line.text.replace(/\r$/, '') }));
}

/** A line that can be a title's text: not indented (that is a block quote or literal), not itself an adornment. */
function titleLike(line: TextLine | undefined): line is TextLine {
  return !!line && line.text.trim() !== '' && !/^\s/.test(line.text) && !ADORNMENT.test(line.text);
}

/** True when `adornment` adorns `title`: one character repeated, at least 3 long (or as wide as a shorter title;
 *  docutils only warns about an underline shorter than its title). */
function adorns(adornment: TextLine | undefined, title: TextLine): adornment is TextLine {
  if (!adornment || !ADORNMENT.test(adornment.text)) return false;
  return adornment.text.trimEnd().length >= Math.min(3, columns(title.text.trimEnd()));
}

/** The section titles of a reStructuredText text and its title (the first section title), offsets into `text`. */
export function rstHeadings(text: string): { headings: Heading[]; title: string | null } {
  const lines = linesOf(text);
  const styles: string[] = [];
  const headings: Heading[] = [];
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i]!.text.trim() === '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Overline, title, underline: the same character, the overline as long as the underline.
    const over = ADORNMENT.exec(line.text);
    const inner = lines[i + 1];
    const under = lines[i + 2];
    if (over && blank(i - 1) && inner && inner.text.trim() !== '' && !ADORNMENT.test(inner.text) && under && under.text.trimEnd() === line.text.trimEnd()) {
      push(`${over[1]}/over`, inner, headings, styles);
      i += 2;
      continue;
    }
    // Title and underline: the title follows a blank line (or starts the file).
    const next = lines[i + 1];
    if (titleLike(line) && blank(i - 1) && adorns(next, line)) {
      push(ADORNMENT.exec(next.text)![1]!, line, headings, styles);
      i += 1;
    }
  }
  return { headings, title: headings[0]?.text ?? null };
}

function push(style: string, line: TextLine, headings: Heading[], styles: string[]): void {
  const level = styleLevel(style, styles);
  const lead = line.text.length - line.text.trimStart().length;
  const raw = line.text.trim();
  const start = line.start + lead;
  headings.push({ start, end: start + raw.length, level, text: plainTitle(raw) || raw });
}

/** A title's inline markup as text: roles (:mod:`json`), literals (``x``), references (`x`_, x_) and emphasis. */
function plainTitle(raw: string): string {
  return raw
    .replace(/(?::[\w.+-]+(?::[\w.+-]+)*:)?`([^`]+?)(?:\s*<[^>]*>)?`(?::[\w.+-]+:)?_{0,2}/g, '$1')
    .replace(/``([^`]+)``/g, '$1')
    .replace(/\*\*([^*]+)\*\*|\*([^*]+)\*/g, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}
