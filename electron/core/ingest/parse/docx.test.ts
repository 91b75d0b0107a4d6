import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseDocx } from './docx';
import { buildDocx, buildDocxPackage, failureOf } from './fixtures';

const failure = (bytes: Uint8Array) => failureOf(() => parseDocx(bytes));

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
const para = (inner: string, props = '') => `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${inner}</w:p>`;
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const style = (id: string) => `<w:pStyle w:val="${id}"/>`;
const item = (numId: number, level = 0) => `<w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr>`;
const wordDocument = (body: string) => `<w:document ${W} ${MC}><w:body>${body}</w:body></w:document>`;

/** Word's styles as Word writes them: ids that need not say "Heading" (Chinese Word's are "1", "2"…), English names. */
const STYLES = `<w:styles ${W}>` +
  '<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>' +
  '<w:style w:type="character" w:styleId="Heading3Char"><w:name w:val="heading 3"/></w:style>' +
  '</w:styles>';
/** List 1 bullets at both levels; list 2 numbered. */
const NUMBERING = `<w:numbering ${W}>` +
  '<w:abstractNum w:abstractNumId="10"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>' +
  '<w:abstractNum w:abstractNumId="20"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>' +
  '</w:numbering>';

describe('parseDocx', () => {
  it('keeps Word headings as headings and paragraphs as paragraphs', async () => {
    const bytes = await buildDocx([
      { text: 'Deployment runbook', heading: 1 },
      { text: 'Roll out to staging first & watch <errors>.' },
      { text: '回滚步骤', heading: 2 },
      { text: '先停止流量，再恢复旧版本。' },
    ]);
    const doc = await parseDocx(bytes);
    expect(doc.text).toBe(
      'Deployment runbook\n\nRoll out to staging first & watch <errors>.\n\n回滚步骤\n\n先停止流量，再恢复旧版本。',
    );
    expect(doc.title).toBe('Deployment runbook');
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, 'Deployment runbook', 'Deployment runbook'],
      [2, '回滚步骤', '回滚步骤'],
    ]);
  });

  it('has no title without headings', async () => {
    const doc = await parseDocx(await buildDocx([{ text: 'Only a paragraph.' }]));
    expect(doc).toEqual({ text: 'Only a paragraph.', headings: [], title: null });
  });

  it('finds headings by style name, the Title style, and lists by their numbering', async () => {
    const body = [
      para(run('Release handbook'), style('Title')),
      para(run('第一章 概述'), style('1')),
      para(run('Checklist'), style('Heading2')),
      para(run('Back up the database'), item(1)),
      para(run('Check the dump'), item(1, 1)),
      para(run('Tell the team'), style('ListBullet')),
      para(run('Deploy'), item(2)),
      para(run('Verify'), item(2)),
      para(run('Not a list any more'), item(0)),
      para(run('Styled like a character heading'), style('Heading3Char')),
    ].join('');
    const doc = await parseDocx(await buildDocxPackage({ document: wordDocument(body), styles: STYLES, numbering: NUMBERING }));
    expect(doc.text).toBe(
      'Release handbook\n\n第一章 概述\n\nChecklist\n\nBack up the database\n\nCheck the dump\n\nTell the team\n\n' +
        'Deploy\nVerify\n\nNot a list any more\n\nStyled like a character heading',
    );
    expect(doc.headings.map((h) => [h.level, h.text])).toEqual([[1, 'Release handbook'], [1, '第一章 概述'], [2, 'Checklist']]);
    expect(doc.title).toBe('Release handbook');
  });

  it('reads runs as Word shows them: tabs, breaks, symbols, text boxes once, tracked changes accepted', async () => {
    const body = [
      // A tab stop in the paragraph's properties is not text; a tab in a run is.
      para(`${run('Name')}<w:r><w:tab/></w:r>${run('Value')}<w:r><w:br/></w:r>${run('next line')}`,
        '<w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs>'),
      // Symbol-font Greek, a non-breaking hyphen, a soft hyphen (not text).
      para(`${run('TNF')}<w:r><w:noBreakHyphen/><w:sym w:font="Symbol" w:char="F061"/></w:r>${run(' in mi')}<w:r><w:softHyphen/></w:r>${run('croglia')}`),
      // A field: its instruction is not text, its result is.
      para(`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "https://x" </w:instrText></w:r>` +
        `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run('the link')}<w:r><w:fldChar w:fldCharType="end"/></w:r>`),
      // Tracked changes: deleted text goes, inserted text stays.
      para(`${run('Keep ')}<w:del w:id="1"><w:r><w:delText>removed </w:delText></w:r></w:del><w:ins w:id="2">${run('added')}</w:ins>`),
      // A text box written twice (the 2010 drawing and its VML fallback) is read once, as its own paragraph.
      para(`${run('Before the box.')}<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>` +
        `${para(run('In the box'))}</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>` +
        `${para(run('In the box'))}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>${run('After the box.')}`),
      // A paragraph whose mark was deleted runs on into the next; one whose mark was only deleted before
      // a formatting change (the old properties a change records) does not.
      para(run('This is a '), '<w:rPr><w:del w:id="3"/></w:rPr>'),
      para(run('joined paragraph.')),
      para(run('Kept apart.'), '<w:rPr><w:b/><w:rPrChange w:id="4"><w:rPr><w:del w:id="5"/></w:rPr></w:rPrChange></w:rPr>'),
      // A table: each cell's paragraphs are paragraphs.
      `<w:tbl><w:tr><w:tc>${para(run('Top left'))}</w:tc><w:tc>${para(run('Top right'))}</w:tc></w:tr></w:tbl>`,
    ].join('');
    const doc = await parseDocx(await buildDocxPackage({ document: wordDocument(body) }));
    expect(doc.text).toBe(
      'Name Value\nnext line\n\nTNF\u2011α in microglia\n\nthe link\n\nKeep added\n\nBefore the box.\n\nIn the box\n\nAfter the box.\n\n' +
        'This is a joined paragraph.\n\nKept apart.\n\nTop left\n\nTop right',
    );
  });

  it('numbers footnotes and endnotes where they are cited and puts their text after the body', async () => {
    const notes = (kind: 'footnote' | 'endnote', notesBody: string) =>
      `<w:${kind}s ${W}><w:${kind} w:type="separator" w:id="-1">${para('<w:r><w:separator/></w:r>')}</w:${kind}>${notesBody}</w:${kind}s>`;
    const body = para(`${run('Ouch')}<w:r><w:footnoteReference w:id="5"/></w:r>${run('. Fin')}<w:r><w:endnoteReference w:id="2"/></w:r>`);
    const doc = await parseDocx(await buildDocxPackage({
      document: wordDocument(body),
      footnotes: notes('footnote', `<w:footnote w:id="5">${para(`<w:r><w:footnoteRef/></w:r>${run(' A tachyon walks into a bar.')}`)}${para(run('Second paragraph.'))}</w:footnote>`),
      endnotes: notes('endnote', `<w:endnote w:id="2">${para(run('The end.'))}</w:endnote>`),
    }));
    expect(doc.text).toBe('Ouch[1]. Fin[2]\n\n[1] A tachyon walks into a bar.\n\nSecond paragraph.\n\n[2] The end.');
  });

  it('reads a document whose WordprocessingML namespace has another prefix', async () => {
    const document = '<d:document xmlns:d="http://purl.oclc.org/ooxml/wordprocessingml/main"><d:body>' +
      '<d:p><d:pPr><d:pStyle d:val="Heading2"/></d:pPr><d:r><d:t>Strict heading</d:t></d:r></d:p>' +
      '<d:p><d:r><d:t>Strict body</d:t></d:r></d:p></d:body></d:document>';
    const styles = '<s:styles xmlns:s="http://purl.oclc.org/ooxml/wordprocessingml/main">' +
      '<s:style s:type="paragraph" s:styleId="Heading2"><s:name s:val="heading 2"/></s:style></s:styles>';
    const doc = await parseDocx(await buildDocxPackage({ document, styles }));
    expect(doc).toEqual({
      text: 'Strict heading\n\nStrict body',
      headings: [{ start: 0, end: 14, level: 2, text: 'Strict heading' }],
      title: 'Strict heading',
    });
  });

  it('refuses a corrupt, encrypted or empty document', async () => {
    const valid = await buildDocx([{ text: 'x' }]);
    expect(await failure(Buffer.from('not a zip file at all'))).toBe(
      'corrupt: the Word document is damaged: it is not the zip file its name says',
    );
    expect(await failure(valid.subarray(0, valid.length - 30))).toMatch(/^corrupt: the Word document could not be read: .+/);
    const zip = new JSZip();
    zip.file('hello.txt', 'a zip, but not a Word document');
    expect(await failure(await zip.generateAsync({ type: 'nodebuffer' }))).toBe(
      'corrupt: the Word document could not be read: word/document.xml is missing',
    );
    const compound = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    expect(await failure(compound)).toBe('unreadable: the Word document is password-protected; remove the password to index it');
    expect(await failure(await buildDocx([{ text: '   ' }]))).toBe('empty: the Word document has no text');
    expect(await failure(await buildDocxPackage({ document: wordDocument(para('<w:r><w:delText>gone</w:delText></w:r>')) }))).toBe(
      'empty: the Word document has no text',
    );
  });
});

