/**
 * DOCX → text, read from the package's XML in one streaming pass with no document tree. Word's heading
 * styles (and the Title style) become headings, and so section boundaries, like `<h1>`–`<h6>` in a web
 * page. Paragraphs, list items, table cells and text boxes become lines and paragraphs through the
 * writer the HTML parser uses. Footnotes and endnotes are numbered `[n]` where they are cited and
 * follow the body.
 *
 * This replaces a converter that built the whole document as objects and then as HTML: a 30 MB
 * document took 15 s of CPU and a 1 GB heap, and its speed per MB fell as files grew.
 */
import { Parser } from 'htmlparser2';
import { ParseError, type ParsedDocument } from '../types';
import { TextWriter } from './html-text';
import { openZip, relationships, type ZipReader } from './zip';
import { say } from '../../../../shared/said';

/** What a DOCX file contributes to a ParsedDocument. */
export type ParsedDocx = Pick<ParsedDocument, 'text' | 'title' | 'headings'>;

const WORD = say('what.docx');

/** WordprocessingML's namespace, transitional and strict. Its prefix is whatever the part declares. */
const W_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);
const MC_NAMESPACE = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** A style name (or id) Word gives its heading styles, in any of its spellings; `Title` is a level-1 heading. */
const HEADING_STYLE = /^heading\s*([1-6])$/i;
const TITLE_STYLE = /^title$/i;

/**
 * Extract a Word document's text and headings. Title: the first heading. Throws ParseError:
 * `unreadable` when password-protected, `corrupt` when the file is not a readable DOCX, `too_wide` when
 * it would unpack past the bound, `empty` when it has no text.
 */
export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocx> {
  const zip = await openZip(bytes, WORD);
  const main = await mainPart(zip);
  const xml = await zip.text(main);
  if (xml === null) throw new ParseError('corrupt', say('file.docxUnreadable', { detail: `${main} is missing` }).text);
  const parts = await relatedParts(zip, main);
  const styles = readStyles(await partText(zip, parts.styles));
  const lists = readNumbering(await partText(zip, parts.numbering));

  const writer = new TextWriter();
  const body = new BodyReader(writer, styles, lists);
  body.read(xml);
  const notes = await readNotes(zip, parts, styles, lists);
  for (const ref of body.noteRefs) {
    const paragraphs = notes.get(`${ref.kind}:${ref.id}`) ?? [];
    paragraphs.forEach((text, i) => {
      writer.boundary(2);
      writer.inline(i === 0 ? `[${ref.number}] ${text}` : text);
    });
  }
  const text = writer.text;
  if (text.trim() === '') throw new ParseError('empty', say('file.docxNoText').text);
  return { text, headings: writer.headings, title: writer.headings[0]?.text ?? null };
}

/** The main document part the package's relationships name (`word/document.xml` by convention). */
async function mainPart(zip: ZipReader): Promise<string> {
  const rels = [...(await relationships(zip, '')).values()];
  return rels.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'word/document.xml';
}

/** The parts of the main document Sift reads besides it: styles, list numbering, footnotes, endnotes. */
interface RelatedParts {
  styles?: string;
  numbering?: string;
  footnotes?: string;
  endnotes?: string;
}

/** A related part's text, or null when the document has no such part. */
async function partText(zip: ZipReader, part: string | undefined): Promise<string | null> {
  return part ? zip.text(part) : null;
}

async function relatedParts(zip: ZipReader, main: string): Promise<RelatedParts> {
  const parts: RelatedParts = {};
  for (const { type, target } of (await relationships(zip, main)).values()) {
    const kind = type.slice(type.lastIndexOf('/') + 1);
    if (kind === 'styles' || kind === 'numbering' || kind === 'footnotes' || kind === 'endnotes') parts[kind] = target;
  }
  return parts;
}

/** What the styles part says about paragraph styles: heading levels, and which styles number their paragraphs. */
interface Styles {
  headingLevel: Map<string, number>;
  /** Style id → the numbering id its paragraphs take (a list style such as "List Bullet"). */
  numbering: Map<string, string>;
}

function readStyles(xml: string | null): Styles {
  const styles: Styles = { headingLevel: new Map(), numbering: new Map() };
  if (xml === null) return styles;
  const w = new Names();
  let id: string | null = null;
  new XmlWalk(w, {
    open(name, attribs) {
      if (name === w.style) id = attribs[w.type] === 'paragraph' ? (attribs[w.styleId] ?? null) : null;
      else if (id === null) return;
      else if (name === w.name) {
        const styleName = attribs[w.val] ?? '';
        const level = HEADING_STYLE.exec(styleName)?.[1] ?? HEADING_STYLE.exec(id)?.[1];
        if (level) styles.headingLevel.set(id, Number(level));
        else if (TITLE_STYLE.test(styleName) || TITLE_STYLE.test(id)) styles.headingLevel.set(id, 1);
      } else if (name === w.numId && attribs[w.val]) styles.numbering.set(id, attribs[w.val]!);
    },
    close(name) {
      if (name === w.style) id = null;
    },
  }).read(xml);
  return styles;
}

/** Lists by numbering id: for each level, whether it is numbered (ordered) rather than bulleted. */
type Lists = Map<string, boolean[]>;

function readNumbering(xml: string | null): Lists {
  const lists: Lists = new Map();
  if (xml === null) return lists;
  const w = new Names();
  const abstract = new Map<string, boolean[]>();
  const numToAbstract = new Map<string, string>();
  let levels: boolean[] | null = null;
  let level = 0;
  let num: string | null = null;
  new XmlWalk(w, {
    open(name, attribs) {
      if (name === w.abstractNum) abstract.set(attribs[w.abstractNumId] ?? '', (levels = []));
      else if (name === w.lvl && levels) level = Number(attribs[w.ilvl]) || 0;
      else if (name === w.numFmt && levels) levels[level] = attribs[w.val] !== 'bullet';
      else if (name === w.num) num = attribs[w.numId] ?? null;
      else if (name === w.abstractNumId && num !== null) numToAbstract.set(num, attribs[w.val] ?? '');
    },
    close(name) {
      if (name === w.abstractNum) levels = null;
      else if (name === w.num) num = null;
    },
  }).read(xml);
  for (const [id, abstractId] of numToAbstract) {
    const found = abstract.get(abstractId);
    if (found) lists.set(id, found);
  }
  return lists;
}

/** The text of each footnote and endnote (`footnote:ID`), a string per paragraph. */
async function readNotes(zip: ZipReader, parts: RelatedParts, styles: Styles, lists: Lists): Promise<Map<string, string[]>> {
  const notes = new Map<string, string[]>();
  for (const kind of ['footnote', 'endnote'] as const) {
    const xml = await partText(zip, parts[`${kind}s`]);
    if (xml === null) continue;
    const w = new Names();
    let writer: TextWriter | null = null;
    let id = '';
    let body: BodyReader | null = null;
    // Each note is a little body of its own; separators (types other than a plain note) are not text.
    const walk = new XmlWalk(w, {
      open(name, attribs) {
        if (name === w.names[kind]) {
          const type = attribs[w.type];
          writer = type && type !== 'normal' ? null : new TextWriter();
          id = attribs[w.id] ?? '';
          body = writer ? new BodyReader(writer, styles, lists, w) : null;
        } else body?.open(name, attribs);
      },
      close(name) {
        if (name === w.names[kind]) {
          if (writer) notes.set(`${kind}:${id}`, writer.text.split(/\n+/).map((s) => s.trim()).filter(Boolean));
          writer = body = null;
        } else body?.close(name);
      },
      text(data) {
        body?.text(data);
      },
    });
    walk.read(xml);
  }
  return notes;
}

/** Element names with the prefix the part declares for WordprocessingML (and markup compatibility). */
class Names {
  w = 'w:';
  mc = 'mc:';
  // Paragraphs, runs and what runs hold.
  p = ''; pPr = ''; pStyle = ''; numId = ''; ilvl = ''; t = ''; tab = ''; br = ''; cr = '';
  sym = ''; font = ''; char = ''; noBreakHyphen = ''; footnoteReference = ''; endnoteReference = '';
  // What is skipped: deleted and moved-away content, content-control and change properties, a drawing's first form.
  del = ''; moveFrom = ''; sdtPr = ''; pPrChange = ''; rPrChange = ''; choice = '';
  // Styles, numbering, notes, and attributes.
  style = ''; name = ''; abstractNum = ''; abstractNumId = ''; lvl = ''; numFmt = ''; num = '';
  val = ''; type = ''; styleId = ''; id = '';
  names: Record<'footnote' | 'endnote', string> = { footnote: '', endnote: '' };

  constructor() {
    this.prefix('w:', 'mc:');
  }

  /** Take the prefixes declared on the root element (`xmlns:w="…/wordprocessingml/…"`). */
  declare(attribs: Record<string, string>): void {
    let w = this.w;
    let mc = this.mc;
    for (const [key, value] of Object.entries(attribs)) {
      const prefix = key === 'xmlns' ? '' : key.startsWith('xmlns:') ? `${key.slice(6)}:` : null;
      if (prefix === null) continue;
      if (W_NAMESPACES.has(value)) w = prefix;
      else if (value === MC_NAMESPACE) mc = prefix;
    }
    this.prefix(w, mc);
  }

  private prefix(w: string, mc: string): void {
    this.w = w;
    this.mc = mc;
    const local = ['p', 'pPr', 'pStyle', 'numId', 'ilvl', 't', 'tab', 'br', 'cr', 'sym', 'font', 'char',
      'noBreakHyphen', 'abstractNum', 'abstractNumId', 'lvl', 'numFmt', 'num', 'del',
      'moveFrom', 'sdtPr', 'pPrChange', 'rPrChange', 'style', 'name', 'val', 'type', 'styleId', 'id',
      'footnoteReference', 'endnoteReference'] as const;
    for (const name of local) this[name] = w + name;
    this.names = { footnote: `${w}footnote`, endnote: `${w}endnote` };
    this.choice = `${mc}Choice`;
  }
}

interface Handlers {
  open(name: string, attribs: Record<string, string>): void;
  close(name: string): void;
  text?(data: string): void;
}

/** A SAX pass over one XML part that learns its prefixes from the root element before handing elements on. */
class XmlWalk {
  private rooted = false;

  constructor(private readonly names: Names, private readonly handlers: Handlers) {}

  read(xml: string): void {
    const parser = new Parser(
      {
        onopentag: (name, attribs) => {
          if (!this.rooted) {
            this.rooted = true;
            this.names.declare(attribs);
          }
          this.handlers.open(name, attribs);
        },
        onclosetag: (name) => this.handlers.close(name),
        ontext: (data) => this.handlers.text?.(data),
      },
      { xmlMode: true, decodeEntities: true },
    );
    parser.write(xml);
    parser.end();
  }
}

/** A line break inside a paragraph's content. */
const BREAK = null;

/** A paragraph being read: its content so far, and what its properties said. */
interface Paragraph {
  content: (string | typeof BREAK)[];
  style: string | null;
  /** The numbering's id and level when the paragraph is a list item (numId 0 means "not numbered"). */
  numId: string | null;
  level: number;
  /** The paragraph mark was deleted (tracked changes): its content runs on into the next paragraph. */
  joinsNext: boolean;
}

/** A footnote or endnote cited in the body, numbered in the order of citation. */
interface NoteRef {
  kind: 'footnote' | 'endnote';
  id: string;
  number: number;
}

/**
 * Reads body content (the document, or one note) into a TextWriter as its elements stream by. Text is
 * only what `w:t` holds (not deleted text, field instructions or properties); deleted and moved-away
 * content, the Office 2010 drawing a text box also has as a fallback, and property changes are skipped.
 */
class BodyReader {
  readonly noteRefs: NoteRef[] = [];
  private readonly stack: Paragraph[] = [];
  /** Depth inside a skipped element (0: not skipping). */
  private skipping = 0;
  private inText = false;
  private pPrDepth = 0;
  /** The kind and level of list of the item written last, while the paragraphs written are a list; else null. */
  private list: string | null = null;
  /** Content of a paragraph whose mark was deleted, waiting for the paragraph it joins. */
  private carried: Paragraph['content'] = [];

  constructor(
    private readonly writer: TextWriter,
    private readonly styles: Styles,
    private readonly lists: Lists,
    private readonly w: Names = new Names(),
  ) {}

  read(xml: string): void {
    new XmlWalk(this.w, this).read(xml);
  }

  open(name: string, attribs: Record<string, string>): void {
    const w = this.w;
    if (this.skipping > 0) {
      this.skipping++;
      return;
    }
    const paragraph = this.stack[this.stack.length - 1];
    // A deleted paragraph mark (not one inside the old properties a formatting change records, skipped above).
    if (name === w.del && this.pPrDepth > 0 && paragraph) paragraph.joinsNext = true;
    if (name === w.del || name === w.moveFrom || name === w.choice || name === w.sdtPr || name === w.pPrChange || name === w.rPrChange) {
      this.skipping++;
      return;
    }
    if (name === w.p) {
      // A paragraph inside a paragraph (a text box's): what came before it is a paragraph of its own.
      if (paragraph) this.emit(paragraph);
      this.stack.push({ content: this.carried, style: null, numId: null, level: 0, joinsNext: false });
      this.carried = [];
    } else if (name === w.t) this.inText = true;
    else if (name === w.pPr) this.pPrDepth++;
    else if (!paragraph) return;
    else if (this.pPrDepth > 0) {
      if (name === w.pStyle) paragraph.style = attribs[w.val] ?? null;
      else if (name === w.numId) paragraph.numId = attribs[w.val] ?? null;
      else if (name === w.ilvl) paragraph.level = Number(attribs[w.val]) || 0;
    } else {
      // What runs hold besides text (a tab stop in the paragraph's properties, read above, is not text).
      if (name === w.tab) paragraph.content.push('\t');
      else if (name === w.cr) paragraph.content.push(BREAK);
      else if (name === w.br) {
        const type = attribs[w.type];
        if (!type || type === 'textWrapping') paragraph.content.push(BREAK);
      } else if (name === w.noBreakHyphen) paragraph.content.push('\u2011');
      else if (name === w.sym) paragraph.content.push(symbol(attribs[w.font] ?? '', attribs[w.char] ?? ''));
      else if (name === w.footnoteReference || name === w.endnoteReference) {
        const number = this.noteRefs.length + 1;
        this.noteRefs.push({ kind: name === w.footnoteReference ? 'footnote' : 'endnote', id: attribs[w.id] ?? '', number });
        paragraph.content.push(`[${number}]`);
      }
    }
  }

  close(name: string): void {
    const w = this.w;
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    if (name === w.t) this.inText = false;
    else if (name === w.pPr) this.pPrDepth--;
    else if (name === w.p) {
      const paragraph = this.stack.pop();
      if (paragraph?.joinsNext) this.carried = paragraph.content;
      else if (paragraph) this.emit(paragraph);
    }
  }

  text(data: string): void {
    if (this.inText && this.skipping === 0) this.stack[this.stack.length - 1]?.content.push(data);
  }

  /** Write a paragraph's content (and start it afresh: a paragraph a text box interrupted goes on after it). */
  private emit(paragraph: Paragraph): void {
    const content = paragraph.content;
    paragraph.content = [];
    if (!content.some((piece) => piece !== BREAK && piece !== '')) return;
    const writer = this.writer;
    const level = paragraph.style === null ? undefined : this.styles.headingLevel.get(paragraph.style);
    if (level !== undefined) {
      writer.heading(level, content.map((piece) => piece ?? '\n').join(''));
      this.list = null;
      return;
    }
    const numId = paragraph.numId ?? (paragraph.style !== null ? this.styles.numbering.get(paragraph.style) : undefined);
    const levels = numId === undefined ? undefined : this.lists.get(numId);
    const list = levels ? `${(levels[paragraph.level] ?? true) ? 'ordered' : 'bulleted'}:${paragraph.level}` : null;
    // Items of a list are lines. A list, and a change of level or between bullets and numbers, is set off by a blank line.
    writer.boundary(list !== null && list === this.list ? 1 : 2);
    let run = '';
    for (const piece of content) {
      if (piece !== BREAK) {
        run += piece;
        continue;
      }
      if (run) writer.inline(run);
      run = '';
      writer.lineBreak();
    }
    if (run) writer.inline(run);
    writer.boundary(list !== null ? 1 : 2);
    this.list = list;
  }
}

/**
 * Adobe's Symbol font by code, for the characters documents insert from it (`w:sym`): Greek letters and
 * the common mathematical signs. Word writes the code either as is or moved into the private use area
 * (U+F000 + code).
 */
const SYMBOL_FONT: Record<number, string> = (() => {
  const table: Record<number, string> = {};
  const greek = (from: number, letters: string) => [...letters].forEach((c, i) => (table[from + i] = c));
  greek(0x41, 'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ');
  greek(0x61, 'αβχδεφγηιϕκλμνοπθρστυϖωξψζ');
  const signs: [number, string][] = [
    [0x22, '∀'], [0x24, '∃'], [0x27, '∋'], [0x2a, '∗'], [0x2d, '−'], [0x40, '≅'], [0x5c, '∴'], [0x5e, '⊥'],
    [0x7e, '∼'], [0xa1, 'ϒ'], [0xa2, '′'], [0xa3, '≤'], [0xa5, '∞'], [0xa6, 'ƒ'], [0xab, '↔'], [0xac, '←'],
    [0xad, '↑'], [0xae, '→'], [0xaf, '↓'], [0xb0, '°'], [0xb1, '±'], [0xb2, '″'], [0xb3, '≥'], [0xb4, '×'],
    [0xb5, '∝'], [0xb6, '∂'], [0xb7, '•'], [0xb8, '÷'], [0xb9, '≠'], [0xba, '≡'], [0xbb, '≈'], [0xbc, '…'],
    [0xc0, 'ℵ'], [0xc4, '⊗'], [0xc5, '⊕'], [0xc6, '∅'], [0xc7, '∩'], [0xc8, '∪'], [0xc9, '⊃'], [0xca, '⊇'],
    [0xcc, '⊂'], [0xcd, '⊆'], [0xce, '∈'], [0xcf, '∉'], [0xd0, '∠'], [0xd1, '∇'], [0xd5, '∏'], [0xd6, '√'],
    [0xd7, '⋅'], [0xd8, '¬'], [0xd9, '∧'], [0xda, '∨'], [0xdb, '⇔'], [0xdc, '⇐'], [0xde, '⇒'], [0xe0, '◊'],
    [0xe5, '∑'], [0xf2, '∫'],
  ];
  for (const [code, c] of signs) table[code] = c;
  return table;
})();

/**
 * The text of a symbol character (`w:sym`): from the Symbol font through its table, from another font as
 * the code it names unless that is a private-use glyph (a dingbat Sift cannot name), which is left out.
 */
function symbol(font: string, hex: string): string {
  const code = Number.parseInt(hex, 16);
  if (!Number.isFinite(code)) return '';
  const inFont = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code;
  if (/^symbol$/i.test(font.trim())) {
    // Outside the table, the font's digits and punctuation are ASCII's.
    const ascii = String.fromCharCode(inFont);
    return SYMBOL_FONT[inFont] ?? ((inFont >= 0x20 && inFont < 0x40) || '[]_{|}'.includes(ascii) ? ascii : '');
  }
  return code >= 0xe000 && code <= 0xf8ff ? '' : String.fromCodePoint(code);
}
