/**
 * Test-only builders for real slide decks (pptx, odp) and e-books (epub), zipped by hand with jszip the
 * way PowerPoint, LibreOffice Impress and EPUB producers lay them out, so tests read genuine packages
 * without binary fixtures in the repository. Not imported by production code.
 */
import JSZip from 'jszip';

/** One slide of a fixture deck. */
export interface FixtureSlide {
  title?: string;
  /** Body paragraphs (one text box). */
  body?: string[];
  /** Rows of a table on the slide. */
  table?: string[][];
  /** Speaker notes' paragraphs. */
  notes?: string[];
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The XML declaration OOXML parts start with. */
export const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A relationships part (`_rels/NAME.rels`): id, type (the last word of the OOXML relationship type), target. */
export function rels(items: [id: string, type: string, target: string][]): string {
  const body = items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('');
  return `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`;
}

/** A shape: a placeholder of `type` (or a plain text box) with one `<a:p>` per paragraph, runs split in two. */
function shape(id: number, type: string | null, paragraphs: string[]): string {
  const ph = type ? `<p:nvPr><p:ph type="${type}"/></p:nvPr>` : '<p:nvPr/>';
  const paras = paragraphs.map((p) => {
    const half = Math.ceil(p.length / 2);
    return `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(p.slice(0, half))}</a:t></a:r><a:r><a:t>${esc(p.slice(half))}</a:t></a:r></a:p>`;
  });
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/>${ph}</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paras.join('')}</p:txBody></p:sp>`;
}

function table(rows: string[][]): string {
  const tr = rows.map((r) => `<a:tr h="0">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${esc(c)}</a:t></a:r></a:p></a:txBody></a:tc>`).join('')}</a:tr>`);
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${tr.join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

function spTree(shapes: string): string {
  return `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld>`;
}

/** A PowerPoint deck: presentation, slides in order (listed out of file order on purpose), notes pages, a slide number. */
export async function buildPptx(slides: FixtureSlide[], options: { title?: string } = {}): Promise<Buffer> {
  const zip = new JSZip();
  const overrides = slides.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`);
  zip.file('[Content_Types].xml', `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${overrides.join('')}</Types>`);
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]));
  // Relationship ids run backwards so reading order must come from sldIdLst, not from the ids or file names.
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${100 - i}"/>`).join('');
  zip.file('ppt/presentation.xml', `${XML}<p:presentation ${NS}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`);
  zip.file('ppt/_rels/presentation.xml.rels', rels(slides.map((_, i) => [`rId${100 - i}`, 'slide', `slides/slide${i + 1}.xml`])));
  slides.forEach((s, i) => {
    const n = i + 1;
    const shapes = [
      s.title !== undefined ? shape(2, 'title', [s.title]) : '',
      s.body ? shape(3, null, s.body) : '',
      s.table ? table(s.table) : '',
      shape(4, 'sldNum', [String(n)]),
    ];
    zip.file(`ppt/slides/slide${n}.xml`, `${XML}<p:sld ${NS}>${spTree(shapes.join(''))}</p:sld>`);
    if (s.notes) {
      zip.file(`ppt/slides/_rels/slide${n}.xml.rels`, rels([['rId1', 'notesSlide', `../notesSlides/notesSlide${n}.xml`]]));
      const notes = shape(2, 'sldImg', []) + shape(3, 'body', s.notes) + shape(4, 'sldNum', [String(n)]);
      zip.file(`ppt/notesSlides/notesSlide${n}.xml`, `${XML}<p:notes ${NS}>${spTree(notes)}</p:notes>`);
    }
  });
  if (options.title) {
    zip.file('docProps/core.xml', `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(options.title)}</dc:title></cp:coreProperties>`);
  }
  return zip.generateAsync({ type: 'nodebuffer' });
}

const ODF_NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

function odfFrame(kind: string | null, paragraphs: string[]): string {
  const cls = kind ? ` presentation:class="${kind}"` : '';
  // A paragraph's words split by <text:s/> (a space) and a span, as Impress writes them.
  const paras = paragraphs.map((p) => {
    const [head, ...rest] = p.split(' ');
    return `<text:p>${esc(head ?? '')}${rest.length ? `<text:s/><text:span>${esc(rest.join(' '))}</text:span>` : ''}</text:p>`;
  });
  return `<draw:frame${cls}><draw:text-box>${paras.join('')}</draw:text-box></draw:frame>`;
}

/** A LibreOffice Impress deck: mimetype first, manifest, content with pages and notes; `encrypted` marks content.xml so. */
export async function buildOdp(slides: FixtureSlide[], options: { encrypted?: boolean } = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.presentation', { compression: 'STORE' });
  const encryption = options.encrypted ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/></manifest:encryption-data>' : '';
  zip.file('META-INF/manifest.xml', `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encryption}</manifest:file-entry></manifest:manifest>`);
  const pages = slides.map((s, i) => {
    const frames = [
      s.title !== undefined ? odfFrame('title', [s.title]) : '',
      s.body ? odfFrame('outline', s.body) : '',
      odfFrame('page-number', [String(i + 1)]),
    ];
    const notes = s.notes ? `<presentation:notes><draw:page-thumbnail presentation:class="page"/>${odfFrame('notes', s.notes)}</presentation:notes>` : '';
    return `<draw:page draw:name="page${i + 1}">${frames.join('')}${notes}</draw:page>`;
  });
  const content = `${XML}<office:document-content ${ODF_NS}><office:body><office:presentation>${pages.join('')}</office:presentation></office:body></office:document-content>`;
  zip.file('content.xml', options.encrypted ? Buffer.from(content).reverse() : content);
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** One chapter of a fixture e-book: its table-of-contents label and its XHTML body. */
export interface FixtureChapter {
  label?: string;
  body: string;
}

/** Options of {@link buildEpub}. */
export interface EpubOptions {
  title?: string;
  /** EPUB 2 (an NCX table of contents) instead of EPUB 3 (a nav document). Default false. */
  ncx?: boolean;
  /** Files the book's encryption.xml lists as encrypted (DRM), by path inside the zip. */
  encrypted?: string[];
}

/**
 * An EPUB: mimetype first, container.xml pointing into a folder, an OPF whose manifest lists chapters in
 * reverse file order and whose spine gives reading order, a nav (or NCX) with the chapters' labels.
 */
export async function buildEpub(chapters: FixtureChapter[], options: EpubOptions = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file('META-INF/container.xml', `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`);
  const files = chapters.map((_, i) => `text/ch${String(chapters.length - i).padStart(2, '0')}.xhtml`);
  const manifest = files.map((href, i) => `<item id="c${i}" href="${href}" media-type="application/xhtml+xml"/>`).reverse();
  manifest.push(options.ncx ? '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>' : '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>');
  const spine = files.map((_, i) => `<itemref idref="c${i}"/>`).join('');
  const title = options.title ? `<dc:title>${esc(options.title)}</dc:title>` : '';
  zip.file('OEBPS/content.opf', `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="${options.ncx ? '2.0' : '3.0'}"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${title}<dc:creator>Sift tests</dc:creator><dc:language>zh</dc:language></metadata><manifest>${manifest.join('')}</manifest><spine${options.ncx ? ' toc="ncx"' : ''}>${spine}</spine></package>`);
  chapters.forEach((c, i) => {
    zip.file(`OEBPS/${files[i]}`, `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${esc(c.label ?? '')}</title></head><body>${c.body}</body></html>`);
  });
  const labelled = chapters.map((c, i) => [c.label, files[i]] as const).filter(([label]) => label !== undefined);
  if (options.ncx) {
    const points = labelled.map(([label, href], i) => `<navPoint id="p${i}" playOrder="${i + 1}"><navLabel><text>${esc(label!)}</text></navLabel><content src="${href}"/></navPoint>`);
    zip.file('OEBPS/toc.ncx', `${XML}<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>${points.join('')}</navMap></ncx>`);
  } else {
    const items = labelled.map(([label, href]) => `<li><a href="${href}#top">${esc(label!)}</a></li>`);
    zip.file('OEBPS/nav.xhtml', `${XML}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${items.join('')}</ol></nav></body></html>`);
  }
  if (options.encrypted) {
    const data = options.encrypted.map((uri) => `<EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><CipherData><CipherReference URI="${uri}"/></CipherData></EncryptedData>`);
    zip.file('META-INF/encryption.xml', `${XML}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">${data.join('')}</encryption>`);
  }
  return zip.generateAsync({ type: 'nodebuffer' });
}
