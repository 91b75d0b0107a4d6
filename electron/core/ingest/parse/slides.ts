/**
 * Slide decks (pptx, odp) → text, a section per slide: the slide's title as a level-1 heading
 * (`Slide N` when it has none), its text boxes and tables a line per paragraph, then its speaker
 * notes under a level-2 heading. Each slide is a numbered span, so a passage says "slide N". Both
 * formats are zip files of XML, read here with jszip and htmlparser2.
 */
import type { Element } from 'domhandler';
import { ParseError, type ParsedDocument } from '../types';
import { PartsWriter } from './parts-writer';
import { all, allOf, childrenNamed, first, isElement, parseXml, textOf } from './xml';
import { openZip, relationships, resolveEntry, type ZipReader } from './zip';
import { say } from '../../../../shared/said';
import { NOTES_HEADING } from '../../../../shared/slide-parts';

/** What a slide deck contributes to a ParsedDocument. */
export type ParsedSlides = Pick<ParsedDocument, 'text' | 'title' | 'headings' | 'pages'>;

/** A slide as read: its title, its body paragraphs, its notes' paragraphs. */
interface Slide {
  /** 1-based position in the deck. */
  number: number;
  title: string;
  body: string[];
  notes: string[];
}

const SLIDES = say('what.slides');

/** The heading the speaker notes of a slide are written under (shared with the page view). */
export { NOTES_HEADING };

/**
 * Parse a pptx or odp (`ext`). Throws ParseError: `unreadable` when password-protected, `corrupt`
 * when the package is broken, `too_wide` when it would unpack past the bound, `empty` with no text.
 */
export async function parseSlides(bytes: Uint8Array, ext: 'pptx' | 'odp'): Promise<ParsedSlides> {
  const zip = await openZip(bytes, SLIDES);
  const { slides, title } = ext === 'pptx' ? await readPptx(zip) : await readOdp(zip);
  const out = new PartsWriter();
  for (const slide of slides) {
    out.beginPart();
    out.heading(1, slide.title || `Slide ${slide.number}`);
    out.paragraph(slide.body.join('\n'));
    if (slide.notes.length > 0) {
      out.heading(2, NOTES_HEADING);
      out.paragraph(slide.notes.join('\n'));
    }
    out.endPart(slide.number);
  }
  const hasText = slides.some((s) => s.title || s.body.length > 0 || s.notes.length > 0);
  if (!hasText) throw new ParseError('empty', say('file.slidesNoText').text);
  return { text: out.text, headings: out.headings, pages: out.parts, title: title || slides.find((s) => s.title)?.title || null };
}

async function need(zip: ZipReader, name: string): Promise<string> {
  const text = await zip.text(name);
  if (text === null) throw new ParseError('corrupt', say('file.slidesUnreadable', { detail: `${name} is missing` }).text);
  return text;
}

/** Paragraph texts (runs joined, line breaks kept as spaces), empty ones left out. */
function paragraphs(container: Element, paragraph: string): string[] {
  return all(container, paragraph).map((p) => textOf(p).replace(/\s+/g, ' ').trim()).filter(Boolean);
}

// ---- pptx -------------------------------------------------------------------------------------

/** Placeholder types whose text is not the slide's words (dates, numbers, footers, the notes' slide image). */
const CHROME = new Set(['dt', 'sldNum', 'ftr', 'hdr', 'sldImg']);

function placeholderType(shape: Element): string | null {
  const ph = first(shape, 'p:ph');
  return ph ? (ph.attribs.type ?? 'body') : null;
}

/** A slide's (or notes page's) title and body paragraphs, shapes in document order (tables too). */
function shapesText(xml: string): { title: string; body: string[] } {
  const tree = parseXml(xml);
  const tree0 = first(tree, 'p:spTree');
  let title = '';
  const body: string[] = [];
  if (!tree0) return { title, body };
  for (const shape of allOf(tree0, ['p:sp', 'p:graphicFrame'])) {
    const type = placeholderType(shape);
    if (type && CHROME.has(type)) continue;
    const rows = all(shape, 'a:tr');
    const lines = rows.length > 0 ? rows.map(tableRow).filter(Boolean) : paragraphs(shape, 'a:p');
    if ((type === 'title' || type === 'ctrTitle') && !title) title = lines.join(' ');
    else body.push(...lines);
  }
  return { title, body };
}

/** A table row on one line, its cells' text joined by ` · ` as a sheet's header line is. */
function tableRow(row: Element): string {
  return childrenNamed(row, 'a:tc').map((cell) => paragraphs(cell, 'a:p').join(' ')).filter(Boolean).join(' · ');
}

async function readPptx(zip: ZipReader): Promise<{ slides: Slide[]; title: string | null }> {
  const presentation = 'ppt/presentation.xml';
  const rels = await relationships(zip, presentation);
  const ids = all(parseXml(await need(zip, presentation)), 'p:sldId').map((s) => s.attribs['r:id'] ?? '');
  const slides: Slide[] = [];
  for (const [index, id] of ids.entries()) {
    const part = rels.get(id)?.target;
    const xml = part ? await zip.text(part) : null;
    if (!part || xml === null) continue;
    const { title, body } = shapesText(xml);
    const notesPart = [...(await relationships(zip, part)).values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
    const notesXml = notesPart ? await zip.text(notesPart) : null;
    const notes = notesXml ? notesText(notesXml) : [];
    slides.push({ number: index + 1, title, body, notes });
  }
  return { slides, title: await coreTitle(zip, 'docProps/core.xml', 'dc:title') };
}

/** A notes page's words: its body placeholder(s), not the slide image, number or header. */
function notesText(xml: string): string[] {
  const { title, body } = shapesText(xml);
  return title ? [title, ...body] : body;
}

async function coreTitle(zip: ZipReader, part: string, name: string): Promise<string | null> {
  const xml = await zip.text(part);
  const element = xml ? first(parseXml(xml), name) : null;
  const title = element ? textOf(element).trim() : '';
  return title || null;
}

// ---- odp --------------------------------------------------------------------------------------

async function readOdp(zip: ZipReader): Promise<{ slides: Slide[]; title: string | null }> {
  const manifest = await zip.text('META-INF/manifest.xml');
  if (manifest && first(parseXml(manifest), 'manifest:encryption-data')) {
    throw new ParseError('unreadable', say('file.encrypted', { what: SLIDES }).text);
  }
  const content = parseXml(await need(zip, 'content.xml'));
  const slides = all(content, 'draw:page').map((page, i) => odpSlide(page, i + 1));
  return { slides, title: await coreTitle(zip, 'meta.xml', 'dc:title') };
}

/** ODF paragraphs: `text:p` and `text:h`, outermost only (a list item's paragraph is one paragraph). */
function odfParagraphs(container: Element): string[] {
  const out: string[] = [];
  const visit = (node: Element) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      if (child.name === 'presentation:notes') continue;
      if (child.name === 'text:p' || child.name === 'text:h') {
        const line = odfText(child).replace(/\s+/g, ' ').trim();
        if (line) out.push(line);
      } else visit(child);
    }
  };
  visit(container);
  return out;
}

/** An ODF paragraph's text: `text:s` a space, `text:tab` and `text:line-break` a space too. */
function odfText(node: Element): string {
  let s = '';
  for (const child of node.children) {
    if (child.type === 'text') s += (child as unknown as { data: string }).data;
    else if (isElement(child)) s += ['text:s', 'text:tab', 'text:line-break'].includes(child.name) ? ' ' : odfText(child);
  }
  return s;
}

/** Presentation classes whose text is page furniture, not the slide's words. */
const ODP_CHROME = new Set(['date-time', 'footer', 'header', 'page-number']);

function odpSlide(page: Element, number: number): Slide {
  let title = '';
  const body: string[] = [];
  for (const frame of page.children.filter(isElement)) {
    if (frame.name === 'presentation:notes') continue;
    const kind = frame.attribs['presentation:class'];
    if (kind && ODP_CHROME.has(kind)) continue;
    const lines = odfParagraphs(frame);
    if (kind === 'title' && !title) title = lines.join(' ');
    else body.push(...lines);
  }
  const notesElement = childrenNamed(page, 'presentation:notes')[0];
  const notes = notesElement
    ? childrenNamed(notesElement, 'draw:frame').filter((f) => f.attribs['presentation:class'] === 'notes').flatMap(odfParagraphs)
    : [];
  return { number, title, body, notes };
}
