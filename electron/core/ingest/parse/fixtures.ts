/**
 * Test-only builders for real PDF and DOCX files, so parser tests run against genuine documents
 * without binary fixtures in the repository. Not imported by production code.
 */
import JSZip from 'jszip';
import { ParseError } from '../types';
import { rels, XML } from './fixtures-packages';

/** How a parse ended, as a test compares it: `parsed`, or the ParseError's `reason: message` (`other: …` for anything else). */
export async function failureOf(parse: () => Promise<unknown>): Promise<string> {
  try {
    await parse();
    return 'parsed';
  } catch (err) {
    return err instanceof ParseError ? `${err.reason}: ${err.message}` : `other: ${String(err)}`;
  }
}

/** Options of {@link buildPdf}. */
export interface PdfFixtureOptions {
  /** Document information `Title`. Default: none. */
  title?: string;
  /**
   * Most pages under one node of the page tree: the pages are grouped under intermediate `Pages` nodes
   * of this many, as large documents' producers write them. Default: one flat list of every page.
   */
  pagesPerNode?: number;
  /** Bookmarks: each entry's title and the page (0-based) it points at, with entries under it. Default: none. */
  outline?: PdfOutlineEntry[];
}

/** One bookmark of {@link buildPdf}'s outline. */
export interface PdfOutlineEntry {
  title: string;
  page: number;
  items?: PdfOutlineEntry[];
}

/** `(`, `)` and `\` must be escaped inside a PDF literal string. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/**
 * A valid PDF (1.4, uncompressed, Helvetica) with one page per entry of `pages`; each page shows its
 * lines top to bottom, one text object per line. A page with no lines has no text at all. The
 * cross-reference table's byte offsets are computed, so pdf.js reads it without repairing it.
 */
export function buildPdf(pages: string[][], options: PdfFixtureOptions = {}): Buffer {
  // Objects: 1 catalog, 2 the page tree's root, 3 the font, then each page and its content stream,
  // then the intermediate Pages nodes (with pagesPerNode), then the document information.
  const perNode = options.pagesPerNode && pages.length > options.pagesPerNode ? options.pagesPerNode : pages.length;
  const nodes = perNode < pages.length ? Math.ceil(pages.length / perNode) : 0;
  const nodeObject = (n: number) => 4 + pages.length * 2 + n;
  const parentOf = (page: number) => (nodes > 0 ? nodeObject(Math.floor(page / perNode)) : 2);
  const rootKids = nodes > 0 ? Array.from({ length: nodes }, (_, n) => nodeObject(n)) : pages.map((_, i) => 4 + i * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${rootKids.map((o) => `${o} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  pages.forEach((lines, i) => {
    const ops = lines.map((line, j) => `BT /F1 12 Tf 72 ${720 - j * 16} Td ${pdfString(line)} Tj ET`).join('\n');
    objects.push(
      `<< /Type /Page /Parent ${parentOf(i)} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
  });
  for (let n = 0; n < nodes; n++) {
    const kids = pages.slice(n * perNode, (n + 1) * perNode).map((_, k) => `${4 + (n * perNode + k) * 2} 0 R`);
    objects.push(`<< /Type /Pages /Parent 2 0 R /Kids [${kids.join(' ')}] /Count ${kids.length} >>`);
  }
  if (options.outline?.length) {
    // The Outlines dictionary, then each entry, linked to its parent, its siblings and its first and last child.
    objects.push('');
    const root = objects.length;
    const place = (entries: PdfOutlineEntry[], parent: number): { first: number; last: number; count: number } => {
      const ids = entries.map(() => objects.push(''));
      entries.forEach((entry, k) => {
        const kids = entry.items?.length ? place(entry.items, ids[k]!) : null;
        const links = [
          `/Parent ${parent} 0 R`,
          k > 0 ? `/Prev ${ids[k - 1]} 0 R` : '',
          k + 1 < ids.length ? `/Next ${ids[k + 1]} 0 R` : '',
          kids ? `/First ${kids.first} 0 R /Last ${kids.last} 0 R /Count ${kids.count}` : '',
        ].join(' ');
        objects[ids[k]! - 1] = `<< /Title ${pdfString(entry.title)} ${links} /Dest [${4 + entry.page * 2} 0 R /XYZ 0 792 0] >>`;
      });
      return { first: ids[0]!, last: ids[ids.length - 1]!, count: ids.length };
    };
    const top = place(options.outline, root);
    objects[root - 1] = `<< /Type /Outlines /First ${top.first} 0 R /Last ${top.last} 0 R /Count ${top.count} >>`;
    objects[0] = `<< /Type /Catalog /Pages 2 0 R /Outlines ${root} 0 R >>`;
  }
  if (options.title !== undefined) objects.push(`<< /Title ${pdfString(options.title)} /Producer (Sift tests) >>`);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const info = options.title !== undefined ? ` /Info ${objects.length} 0 R` : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** One paragraph of a DOCX fixture: body text, or a heading of level 1–6 (Word's "heading N" styles). */
export interface DocxParagraph {
  text: string;
  heading?: 1 | 2 | 3 | 4 | 5 | 6;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** Styles that give `Heading1`…`Heading6` the names Word uses ("heading N"). */
function stylesXml(): string {
  const headings = [1, 2, 3, 4, 5, 6]
    .map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`)
    .join('');
  return `<w:styles ${W}>${headings}</w:styles>`;
}

/** A minimal valid Word document (zip with content types, relationships, styles and the body). */
export async function buildDocx(paragraphs: DocxParagraph[]): Promise<Buffer> {
  const body = paragraphs
    .map((p) => {
      const style = p.heading ? `<w:pPr><w:pStyle w:val="Heading${p.heading}"/></w:pPr>` : '';
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${xmlEscape(p.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  return buildDocxPackage({ document: `<w:document ${W}><w:body>${body}</w:body></w:document>`, styles: stylesXml() });
}

/**
 * A Word package around parts written by the test: the main document's XML (`word/document.xml`), and
 * optionally its styles, numbering, footnotes and endnotes, each tied to it by a relationship.
 */
export async function buildDocxPackage(parts: {
  document: string;
  styles?: string;
  numbering?: string;
  footnotes?: string;
  endnotes?: string;
}): Promise<Buffer> {
  const related = (['styles', 'numbering', 'footnotes', 'endnotes'] as const).filter((kind) => parts[kind] !== undefined);
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'word/document.xml']]));
  zip.file('word/_rels/document.xml.rels', rels(related.map((kind, i) => [`rId${i + 1}`, kind, `${kind}.xml`])));
  for (const kind of related) zip.file(`word/${kind}.xml`, XML + parts[kind]!);
  zip.file('word/document.xml', XML + parts.document);
  return zip.generateAsync({ type: 'nodebuffer' });
}
