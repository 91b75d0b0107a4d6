import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderPdfExport } from './handlers';
import type { ExportSource } from './markdown';
import { chromiumPdfRenderer, findChromium } from './pdf';
import { fixToUnicodeCMap, ideographOf } from './pdf-unicode';

/** The text pdf.js extracts from every page, as a person copying or searching it would get. */
async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join('');
  }
  await doc.destroy();
  return text;
}

// Characters Noto Sans CJK draws with the same glyph as a Kangxi radical or a simplified radical.
const SHARED = '几网手长见门车马鱼鸟风飞页言走行方一人口日月木水火土金';

function source(question: string, answer: string): ExportSource {
  return {
    conversation: { id: 'c', kbId: 'k', title: question, createdAt: 't', updatedAt: 't', messageCount: 2 },
    kbName: '运维',
    messages: [
      { id: 'u', conversationId: 'c', role: 'user', content: question, createdAt: 't', turn: null },
      { id: 'a', conversationId: 'c', role: 'assistant', content: answer, createdAt: 't', turn: null },
    ],
    exportedAt: '2026-11-29T12:00:00.000Z',
  };
}

describe('Chinese text in an exported PDF', () => {
  it('maps radicals to the ideographs they stand for', () => {
    expect(['⼏', '⽹', '⼿', '⻓', '⻅', '⻔', 'a', '几'].map(ideographOf).join('')).toBe('几网手长见门a几');
  });

  it('rewrites a ToUnicode CMap, ranges included, and leaves a clean one alone', () => {
    const cmap = '1 begincodespacerange\n<00> <FF>\nendcodespacerange\n1 beginbfchar\n<7E> <2F0F>\nendbfchar\n'
      + '1 beginbfrange\n<01> <03> <2ED3>\nendbfrange\nendcmap';
    const fixed = fixToUnicodeCMap(cmap);
    expect(fixed).toContain('<7E> <51E0>');
    expect(fixed).toContain('<01> <957F>');
    expect(fixed).toContain('<02> <2ED4>'.replace('2ED4', '95E8'));
    expect(fixed).toMatch(/^1 begincodespacerange[\s\S]*endcmap$/);
    const clean = '1 beginbfchar\n<01> <4E00>\nendbfchar\n';
    expect(fixToUnicodeCMap(clean)).toBe(clean);
  });

  it.skipIf(!findChromium())('copies as the characters shown, not as Kangxi radicals', async () => {
    const pdf = await renderPdfExport(source(`几网手？`, `答案：${SHARED}。`), chromiumPdfRenderer());
    const text = await pdfText(pdf);
    expect(text).toContain(SHARED);
    expect(text).toContain('几网手？');
    expect(text).not.toMatch(/[\u2e80-\u2eff\u2f00-\u2fdf]/u);
  }, 60_000);
});
