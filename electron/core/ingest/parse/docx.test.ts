import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseDocx } from './docx';
import { buildDocx, failureOf } from './fixtures';

const failure = (bytes: Uint8Array) => failureOf(() => parseDocx(bytes));

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

  it('refuses a corrupt or empty document', async () => {
    const valid = await buildDocx([{ text: 'x' }]);
    expect(await failure(Buffer.from('not a zip file at all'))).toMatch(/^corrupt: the Word document could not be read: .+/);
    expect(await failure(valid.subarray(0, valid.length - 30))).toMatch(/^corrupt: /);
    const zip = new JSZip();
    zip.file('hello.txt', 'a zip, but not a Word document');
    expect(await failure(await zip.generateAsync({ type: 'nodebuffer' }))).toMatch(/^corrupt: /);
    expect(await failure(await buildDocx([{ text: '   ' }]))).toBe('empty: the Word document has no text');
  });
});
