import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/temp';
import { buildDocx, buildPdf, failureOf } from './fixtures';
import { parseFile } from './index';

/** Write `bytes` as `name` into a fresh folder and parse what is read back, as the ingest does. */
async function parseWritten(name: string, bytes: Buffer | string) {
  const file = path.join(tempDir(), name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return parseFile(name, fs.readFileSync(file));
}

const failure = (name: string, bytes: Buffer | string) => failureOf(() => parseWritten(name, bytes));

describe('parseFile', () => {
  it('parses Markdown with front matter, headings and metadata', async () => {
    const doc = await parseWritten('notes/retry.md', '\ufeff---\r\ntags: [net]\r\n---\r\n# Retry\r\n\r\nBody 正文\r\n');
    expect(doc).toEqual({
      kind: 'markdown',
      text: '# Retry\n\nBody 正文\n',
      title: 'Retry',
      metadata: { tags: ['net'] },
      headings: [{ start: 0, end: 7, level: 1, text: 'Retry' }],
      pages: null,
      language: null,
      encoding: 'utf-8',
    });
  });

  it('parses plain text as is, with its encoding', async () => {
    const doc = await parseWritten('日志.txt', iconv.encode('连接失败：E_CONN_RESET\r\n稍后重试。\r\n', 'gbk'));
    expect(doc).toEqual({
      kind: 'text',
      text: '连接失败：E_CONN_RESET\n稍后重试。\n',
      title: null,
      metadata: {},
      headings: [],
      pages: null,
      language: null,
      encoding: 'gb18030',
    });
  });

  it.each([
    ['README', 'text', null],
    ['Makefile', 'code', 'makefile'],
    ['src/app.tsx', 'code', 'tsx'],
    ['retry.py', 'code', 'python'],
    ['config.yaml', 'code', 'yaml'],
  ])('reads %s as %s (%s)', async (name, kind, language) => {
    const doc = await parseWritten(name, '# not a heading in code\nx = 1\n');
    expect([doc.kind, doc.language, doc.headings, doc.title, doc.text]).toEqual([
      kind, language, [], null, '# not a heading in code\nx = 1\n',
    ]);
  });

  it('parses HTML in its declared charset', async () => {
    const html = '<html><head><meta charset="big5"><title>重試</title></head><body><h1>重試策略</h1><p>等待三秒。</p></body></html>';
    const doc = await parseWritten('page.htm', iconv.encode(html, 'big5'));
    expect([doc.kind, doc.text, doc.title, doc.encoding]).toEqual(['html', '重試策略\n\n等待三秒。', '重試', 'big5']);
    expect(doc.headings).toEqual([{ start: 0, end: 4, level: 1, text: '重試策略' }]);
  });

  it('parses PDF and DOCX files', async () => {
    const pdf = await parseWritten('paper.PDF', buildPdf([['Page one'], ['Page two']], { title: 'Paper' }));
    expect([pdf.kind, pdf.text, pdf.title, pdf.pages?.length, pdf.headings, pdf.encoding]).toEqual([
      'pdf', 'Page one\n\nPage two', 'Paper', 2, [], null,
    ]);
    const docx = await parseWritten('report.docx', await buildDocx([{ text: 'Summary', heading: 1 }, { text: 'All good.' }]));
    expect([docx.kind, docx.text, docx.title, docx.headings.length, docx.pages]).toEqual([
      'docx', 'Summary\n\nAll good.', 'Summary', 1, null,
    ]);
  });

  it.each([
    ['photo.gif', Buffer.from('GIF89a'), 'unsupported: Sift does not read this kind of file (photo.gif)'],
    ['photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'unsupported: OCR is off'],
    ['data.bin', 'text', 'unsupported: Sift does not read this kind of file (data.bin)'],
    ['empty.md', '', 'empty: the file is empty'],
    ['blank.txt', '  \n\n\t', 'empty: the file is empty'],
    ['only-front-matter.md', '---\ntitle: x\n---\n\n', 'empty: the file has only front matter and no text'],
    ['chrome.html', '<html><body><nav>menu</nav><script>x</script></body></html>', 'empty: the page has no readable text'],
    ['image.txt', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), 'binary: binary file with a text extension'],
    ['lib.js', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]), 'binary: binary file with a text extension'],
    ['broken.pdf', '%PDF-1.4\n1 0 obj', 'corrupt: the PDF could not be read: Invalid PDF structure.'],
    ['broken.docx', 'PK not really', 'corrupt: the Word document is damaged: it is not the zip file its name says'],
  ])('refuses %s', async (name, bytes, reason) => {
    const got = await failure(name, bytes);
    if (reason.endsWith(': ')) expect(got.startsWith(reason)).toBe(true);
    else expect(got).toBe(reason);
  });
});
