/**
 * Perl's documentation format, POD: a `.pod` file, and the POD a Perl module (`.pm`) or script keeps between
 * its code. The text is kept as it is (like reStructuredText, see rst.ts: lines keep their numbers); only the
 * headings and the title are read from POD's commands, which otherwise a plain-text reading takes for prose
 * and whose code comments (`# vim: ts=2 sts=2 sw=2 et:`) it took for titles.
 *
 * - `=head1` … `=head4` are headings of levels 1–4.
 * - An `=item` naming something (`=item Can't locate %s in @INC`, `=item tempfile`, `=item B<--verbose>`) is a
 *   heading one level below the heading it is under, one more per enclosing `=over` list: perldiag's every
 *   message, a module's every function and option, is a section of its own. A bullet or a number
 *   (`=item *`, `=item 2.`) is no heading; the words after it on its line are, when a paragraph of its own
 *   explains them (`=item * $Data::Dumper::Sortkeys`). Items that follow one another with nothing between them (the forms
 *   of one function, two messages explained once) are one section, under the first.
 * - A command's text runs on to the end of its paragraph; formatting codes (`C<…>`, `B<< … >>`, `L<text|link>`,
 *   `E<gt>`) are read as the text they show, and `X<…>` index entries as none.
 * - What `=begin X` … `=end X` or `=for X` hold for another formatter (html, man) gives no headings, nor
 *   does a module's code outside `=pod`/`=head`…`=cut`.
 * - The page is titled by its NAME section (`File::Temp - return name and handle of a temporary file safely`).
 */
import type { Heading } from '../../store/page-model';
import { LineOffsets } from './line-offsets';

/** A POD command at the start of a line: its name and the rest of the line. */
const COMMAND = /^=([a-zA-Z][a-zA-Z0-9]*)(?:[ \t]+(.*?))?[ \t]*$/;
/** A heading command. */
const HEAD = /^head([1-4])$/;
/** An item that marks (a bullet, a number), and the words after its mark. */
const MARKER_ITEM = /^(?:[*o•+-]|\(?\d+[.)]?)(?:\s+|$)(.*)$/;
/** A bare bullet's first line longer than this is its text, not a name. */
const MAX_ITEM_NAME = 120;
/** A title longer than this is no NAME line but a paragraph. */
const MAX_TITLE = 200;

/**
 * True when `text` is POD or holds it: a line `=head1`…`=head4` with a title, and a line of POD's other
 * commands (`=cut`, `=pod`, `=over`, `=item`, `=encoding`), so one stray `=head1` in prose is not enough.
 */
export function holdsPod(text: string): boolean {
  return /^=head[1-4][ \t]+\S/m.test(text) && /^=(?:cut|pod|over|item|encoding)\b/m.test(text);
}

/** A text's lines as offsets, with the paragraphs POD is made of. */
class LineIndex extends LineOffsets {
  /** True for a line of nothing but spaces and tabs. */
  blank(i: number): boolean {
    for (let k = this.start(i), end = this.end(i); k < end; k++) {
      const c = this.text.charCodeAt(k);
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }
  /** The last line of the paragraph that starts at line `first`: the line before the next blank one (or the last). */
  paragraphEnd(first: number): number {
    let last = first;
    while (last + 1 < this.count && !this.blank(last + 1)) last++;
    return last;
  }
  /** True when the next paragraph after line `last` is text, not a command (nor the end). */
  textFollows(last: number): boolean {
    const i = this.nextParagraph(last);
    return i !== null && this.text.charCodeAt(this.start(i)) !== EQUALS;
  }
  /**
   * The line after line `last` that is a paragraph of its own, one line of text, with ordinary text (not a command,
   * not verbatim) after it; else null.
   */
  namingLine(last: number): number | null {
    const line = this.nextText(last);
    if (line === null || (line + 1 < this.count && !this.blank(line + 1))) return null;
    return this.nextText(line) === null ? null : line;
  }
  /** The first line after line `last` past blank ones when it starts ordinary text (not a command, not verbatim). */
  private nextText(last: number): number | null {
    const i = this.nextParagraph(last);
    if (i === null) return null;
    const c = this.text.charCodeAt(this.start(i));
    return c === EQUALS || c === 32 || c === 9 ? null : i;
  }
  /** The first line after line `last` that is not blank, or null at the end. */
  private nextParagraph(last: number): number | null {
    let i = last + 1;
    while (i < this.count && this.blank(i)) i++;
    return i < this.count ? i : null;
  }
  /** The text of lines `first`…`last`, joined by spaces. */
  joined(first: number, last: number): string {
    return this.text.slice(this.start(first), this.end(last)).replace(/\r?\n/g, ' ');
  }
}

const EQUALS = 61;

/** The headings of a POD text (or of the POD in a Perl file) and its title, offsets into `text`. */
export function podHeadings(text: string): { headings: Heading[]; title: string | null } {
  const lines = new LineIndex(text);
  const headings: Heading[] = [];
  let inPod = false;
  /** The format an `=begin` block is for, while inside one that is not POD's own. */
  let foreign: string | null = null;
  let headLevel = 0;
  let depth = 0;
  /** The last heading was an item with nothing under it yet: the next item at its depth joins its section. */
  let openItem: number | null = null;
  let nameNext = false;
  let title: string | null = null;
  for (let i = 0; i < lines.count; i++) {
    const m = text.charCodeAt(lines.start(i)) === EQUALS ? COMMAND.exec(lines.at(i)) : null;
    if (!m) {
      if (!inPod || foreign || lines.blank(i)) continue;
      // An ordinary or verbatim paragraph: the open item now has text of its own, and NAME its title.
      const last = lines.paragraphEnd(i);
      if (openItem !== null || nameNext) {
        const words = podText(lines.joined(i, last));
        if (words !== '') {
          openItem = null;
          if (nameNext && words.length <= MAX_TITLE) title = words;
          nameNext = false;
        }
      }
      i = last;
      continue;
    }
    const [, command, rest = ''] = m;
    // NAME's text is the paragraph right after it, not one after another command.
    nameNext = false;
    if (command === 'cut') {
      inPod = false;
      continue;
    }
    inPod = true;
    const first = i;
    const last = lines.paragraphEnd(i);
    const body = last > first ? `${rest} ${lines.joined(first + 1, last)}` : rest;
    i = last;
    if (foreign) {
      if (command === 'end' && body.trim().split(/\s+/)[0] === foreign) foreign = null;
      continue;
    }
    const heading = (level: number, words: string, end = last): Heading => ({ start: lines.start(first), end: lines.end(end), level, text: words });
    const head = HEAD.exec(command!);
    if (head) {
      const words = podText(body);
      nameNext = head[1] === '1' && /^name$/i.test(words);
      if (words === '') continue;
      headLevel = Number(head[1]);
      depth = 0;
      openItem = null;
      headings.push(heading(headLevel, words));
    } else if (command === 'over') {
      depth++;
      openItem = null;
    } else if (command === 'back') {
      depth = Math.max(0, depth - 1);
      openItem = null;
    } else if (command === 'item') {
      const shown = podText(body);
      const marker = MARKER_ITEM.exec(shown);
      let words = marker ? '' : shown;
      let end = last;
      if (marker?.[1]) {
        // A bullet or number names what follows it on its line when a paragraph of its own explains it
        // (`=item * Purpose`); one that is all the item says is a list entry.
        if (lines.textFollows(last)) words = marker[1];
      } else if (marker) {
        // A bare bullet names what its first paragraph says when that is one short line and prose explains it
        // (`=item *`, then `$Data::Dumper::Sortkeys  I<or>  $I<OBJ>->Sortkeys(I<[NEWVAL]>)`, then what it does).
        const line = lines.namingLine(last);
        const name = line === null ? '' : podText(lines.at(line));
        if (name.length <= MAX_ITEM_NAME && !/[:,;]$/.test(name)) [words, end] = [name, line!];
      }
      if (words === '') continue;
      i = end;
      if (openItem === depth) continue;
      headings.push(heading(Math.min(6, headLevel + Math.max(1, depth)), words, end));
      openItem = depth;
    } else if (command === 'begin') {
      const format = body.trim().split(/\s+/)[0] ?? '';
      if (!/^:?pod$/i.test(format)) foreign = format;
    }
    // =for, =encoding, =pod and commands POD does not know give no heading.
  }
  return { headings, title };
}

/** Named characters `E<…>` stands for (beyond numbers), those POD's own documents use. */
const ENTITIES: Record<string, string> = {
  lt: '<', gt: '>', verbar: '|', sol: '/', quot: '"', amp: '&', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®',
  eacute: 'é', egrave: 'è', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', laquo: '«', raquo: '»', mdash: '—', ndash: '–',
};

/**
 * The text a POD paragraph shows: formatting codes replaced by what they show, whitespace runs made one
 * space, trimmed. `C<a<b>` ends at its first `>`; `C<< a->b >>` at the first `>>` after a space; codes nest.
 */
export function podText(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  // The stack of open codes: the letter, the closing sequence, where its text began in `out`.
  const open: { code: string; close: string; from: number }[] = [];
  while (i < n) {
    const top = open[open.length - 1];
    if (top && source.startsWith(top.close, i) && (top.close === '>' || /\s/.test(source[i - 1] ?? ''))) {
      open.pop();
      out = out.slice(0, top.from) + shown(top.code, out.slice(top.from));
      i += top.close.length;
      continue;
    }
    const code = /^([A-Z])(<+)/.exec(source.slice(i, i + 12));
    if (code) {
      const angles = code[2]!.length;
      const wide = angles > 1 && /\s/.test(source[i + 1 + angles] ?? '');
      if (angles === 1 || wide) {
        open.push({ code: code[1]!, close: wide ? '>'.repeat(angles) : '>', from: out.length });
        i += 1 + (wide ? angles : 1);
        continue;
      }
    }
    out += source[i];
    i++;
  }
  // Codes left open at the end show their text.
  while (open.length > 0) {
    const top = open.pop()!;
    out = out.slice(0, top.from) + shown(top.code, out.slice(top.from));
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** What formatting code `code` shows of its content `inner`. */
function shown(code: string, inner: string): string {
  const text = inner.trim();
  switch (code) {
    case 'X':
    case 'Z':
      return '';
    case 'E': {
      if (/^0x[0-9a-f]+$/i.test(text)) return String.fromCodePoint(parseInt(text.slice(2), 16));
      if (/^0[0-7]*$/.test(text) && text.length > 1) return String.fromCodePoint(parseInt(text, 8));
      if (/^\d+$/.test(text)) return String.fromCodePoint(Number(text));
      return Object.hasOwn(ENTITIES, text) ? ENTITIES[text]! : text;
    }
    case 'L': {
      // L<text|target>, L<name/"section">, L<"section">, L</section>, L<name>.
      const bar = text.indexOf('|');
      if (bar !== -1) return text.slice(0, bar).trim();
      const slash = text.indexOf('/');
      const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');
      if (slash === -1) return unquote(text);
      const name = text.slice(0, slash).trim();
      const section = unquote(text.slice(slash + 1));
      return name ? `"${section}" in ${name}` : section;
    }
    default:
      return inner;
  }
}
