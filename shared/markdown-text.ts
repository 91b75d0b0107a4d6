/**
 * Text from a document placed inside Markdown that Sift writes itself (an extractive answer, an
 * export's footnote). It is flattened to one line and every character Markdown could read as markup
 * is escaped, so nothing in it — half a code fence, a heading mark, HTML, a link, a stray `[2]` — can
 * change how the rest of the Markdown is parsed (by the citation parser too) or rendered.
 */

// Inline markup only: a quote always follows other text on its line, so no block syntax (heading,
// fence, quote, table) can start. `_` inside a word (E_CONN_RESET) is never emphasis, so stays readable.
const MARKUP = /[\\`*[\]<~&]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * `text` as literal Markdown on one line: runs of whitespace become one space, and when longer than
 * `max` characters (default: no limit) it is cut there and ends in "…". The cut is made before escaping,
 * so it never splits an escape.
 */
export function quoteInline(text: string, max = Number.POSITIVE_INFINITY): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return cut.replace(MARKUP, '\\$&');
}

/**
 * `text` without the marks of its Markdown headings (`## Retry policy` becomes `Retry policy`), for a
 * passage quoted as prose, where a `## ` would show as the characters it is.
 */
export function withoutHeadingMarks(text: string): string {
  const heading = /^[ \t]{0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/gm;
  return text.replace(heading, (_m, words: string | undefined) => words ?? '');
}

/** Named character references documentation writes (the rest are rare enough to show as written). */
const NAMED_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', reg: '®', trade: '™', mdash: '—',
  ndash: '–', hellip: '…', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·',
  bull: '•', times: '×', divide: '÷', rarr: '→', larr: '←', uarr: '↑', darr: '↓', harr: '↔', deg: '°', plusmn: '±',
  sect: '§', para: '¶', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwj: '\u200d', zwnj: '\u200c', shy: '',
  check: '✓', euro: '€', pound: '£', yen: '¥', cent: '¢', le: '≤', ge: '≥', ne: '≠', infin: '∞',
};

/** The character a reference (`nbsp`, `#39`, `#x4E2D`) stands for, or null when it is none Sift knows. */
function entityChar(name: string): string | null {
  if (name[0] === '#') {
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : null;
  }
  return NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()] ?? null;
}

const ENTITY = /&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/** `text` with its character references decoded (`&nbsp;` → a no-break space, `&amp;` → `&`); unknown ones kept. */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => entityChar(name) ?? whole);
}

/** A backslash escape of inline Markdown (`\*`), or a character reference: what a reader sees instead. */
const ESCAPE_OR_ENTITY = /\\([!-/:-@[-`{-~])|&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/** Markdown inline text (outside code) as read: escapes become their characters, references are decoded. */
function readableInline(text: string): string {
  return text.replace(ESCAPE_OR_ENTITY, (whole, escaped: string | undefined, name: string | undefined) =>
    escaped !== undefined ? escaped : (entityChar(name!) ?? whole),
  );
}

/** A line of prose with its code spans (`` `x` ``) kept as written and the rest made readable. */
function readableLine(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '\\' && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1]!)) {
      out += line[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      let j = i;
      while (line[j] === '`') j++;
      const close = closingRun(line, j, j - i);
      out += close === -1 ? line.slice(i, j) : line.slice(i, close);
      i = close === -1 ? j : close;
      continue;
    }
    const entity = ch === '&' ? /^&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.exec(line.slice(i, i + 40)) : null;
    const decoded = entity ? entityChar(entity[1]!) : null;
    if (entity && decoded !== null) {
      out += decoded;
      i += entity[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** Where the code span opened by a run of `run` backticks before `from` ends (just after its closing run), or -1. */
function closingRun(line: string, from: number, run: number): number {
  for (let k = from; k < line.length; ) {
    if (line[k] !== '`') {
      k++;
      continue;
    }
    let e = k;
    while (line[e] === '`') e++;
    if (e - k === run) return e;
    k = e;
  }
  return -1;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Markdown made for a screen that shows characters as they are (a terminal): backslash escapes become the
 * characters they escape and character references are decoded, except in code (fenced blocks and code
 * spans stay exactly as written, fences included, so code still reads as a block). Fed in pieces as an
 * answer streams: `write` returns what can be shown now (whole lines, and the words of the current line that
 * nothing later can change), `end` the rest.
 */
export class ReadableMarkdown {
  private fence: string | null = null;
  private pending = '';

  /** True when part of the current line was already shown (it cannot open a fence any more). */
  private midLine = false;

  write(piece: string): string {
    this.pending += piece;
    let out = '';
    for (let nl = this.pending.indexOf('\n'); nl !== -1; nl = this.pending.indexOf('\n')) {
      out += `${this.line(this.pending.slice(0, nl))}\n`;
      this.pending = this.pending.slice(nl + 1);
      this.midLine = false;
    }
    // The words of the current line so far, when nothing in them can change meaning later: outside code, no
    // backtick (a code span may still close), cut at a space (an escape or a reference holds none).
    const cut = this.pending.search(/\s\S*$/);
    const fenceable = !this.midLine && /^ {0,3}[`~]|^ {0,3}$/.test(this.pending);
    if (this.fence === null && cut > 0 && !fenceable && !this.pending.includes('`')) {
      out += readableLine(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut);
      this.midLine = true;
    }
    return out;
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    const out = rest === '' ? '' : this.line(rest);
    this.midLine = false;
    return out;
  }

  private line(line: string): string {
    if (this.midLine) return this.fence === null ? readableLine(line) : line;
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== null) {
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && line.trim() === fence) this.fence = null;
      return line;
    }
    if (fence) {
      this.fence = fence;
      return line;
    }
    return readableLine(line);
  }
}

/** {@link ReadableMarkdown} of a whole text at once. */
export function readableMarkdown(markdown: string): string {
  const reader = new ReadableMarkdown();
  return reader.write(markdown) + reader.end();
}
