/**
 * Scanned pages made at test time: known lines of text drawn with a real font onto a white page (@napi-rs/canvas),
 * encoded as PNG or JPEG, and wrapped as an image-only PDF (one JPEG image XObject per page, no text layer), with
 * where each line was drawn so a test can check the box OCR reports.
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { Box } from '../image';

/** Fonts on this machine (Debian's fonts-noto-cjk and fonts-dejavu). */
export const FONTS = {
  sans: { file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'Noto Sans CJK SC' },
  serifCjk: { file: '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc', family: 'Noto Serif CJK SC' },
  serif: { file: '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf', family: 'DejaVu Serif' },
} as const;

let registered = false;
function registerFonts(): void {
  if (registered) return;
  for (const font of Object.values(FONTS)) GlobalFonts.registerFromPath(font.file, font.family);
  registered = true;
}

/** A drawn page: the image bytes, its size, and each line's text with the box it was drawn in. */
export interface DrawnPage {
  bytes: Buffer;
  width: number;
  height: number;
  lines: Array<{ text: string; box: Box }>;
}

/** An A4 page at 150 dpi. */
export const A4_150 = { width: 1240, height: 1754 } as const;

/**
 * Draw `lines` (one per row, `size` px, black on white) with `family`, from the top-left margin down, and
 * encode the page as `format`.
 */
export function drawPage(
  lines: readonly string[],
  options: { family: string; size?: number; format?: 'png' | 'jpeg' | 'webp'; width?: number; height?: number },
): DrawnPage {
  registerFonts();
  const { family, size = 28, format = 'png', width = A4_150.width, height = A4_150.height } = options;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#000000';
  g.font = `${size}px "${family}"`;
  g.textBaseline = 'alphabetic';
  const drawn: DrawnPage['lines'] = [];
  lines.forEach((text, i) => {
    const x = 100;
    const y = 150 + i * Math.round(size * 1.8);
    g.fillText(text, x, y);
    const m = g.measureText(text);
    drawn.push({ text, box: [x, Math.round(y - m.actualBoundingBoxAscent), Math.round(x + m.width), Math.round(y + m.actualBoundingBoxDescent)] });
  });
  const bytes = format === 'png' ? canvas.toBuffer('image/png') : format === 'jpeg' ? canvas.toBuffer('image/jpeg', 92) : canvas.toBuffer('image/webp', 95);
  return { bytes, width, height, lines: drawn };
}

/**
 * An image-only PDF: each page an A4 sheet (595 × 842 pt) showing one JPEG full-page, nothing else. Written by
 * hand (catalog, page tree, a page + content stream + image per page, cross-reference table).
 */
export function imagePdf(pages: ReadonlyArray<{ jpeg: Buffer; width: number; height: number }>): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string): number => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in below
  const kids: number[] = [];
  for (const page of pages) {
    const image = add(Buffer.concat([
      Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB ` +
        `/BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>\nstream\n`, 'latin1'),
      page.jpeg, Buffer.from('\nendstream', 'latin1'),
    ]));
    const draw = 'q 595 0 0 842 0 0 cm /Im0 Do Q';
    const content = add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${content} 0 R ` +
      `/Resources << /XObject << /Im0 ${image} 0 R >> >> >>`));
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`, 'latin1');
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

/** Character error rate: edit distance between `truth` and `read` over the length of `truth`, spaces ignored. */
export function characterErrorRate(truth: string, read: string): number {
  const a = [...truth.replace(/\s+/g, '')];
  const b = [...read.replace(/\s+/g, '')];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return a.length ? previous[b.length]! / a.length : 0;
}

/** A dense page's worth of English lines (`count` lines of about 60 characters), the same for the same seed. */
export function manyEnglishLines(count: number, seed = 1): string[] {
  const words = ('the report contract invoice delivery payment quarter revenue shipping customer order price signed '
    + 'before after March June total amount balance account service period notice terms agreed parts inspection schedule').split(' ');
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => {
    let line = '';
    while (line.length < 56) line += `${line ? ' ' : ''}${words[Math.floor(next() * words.length)]}`;
    return `${line[0]!.toUpperCase()}${line.slice(1)}.`;
  });
}

/** Known English and Chinese lines for tests and the benchmark. */
export const ENGLISH_LINES = [
  'The quarterly report shows revenue of 4.2 million.',
  'Shipping costs rose by twelve percent in March.',
  'Please sign the contract before the end of June.',
  'The warehouse in Rotterdam closes on public holidays.',
  'Invoice 2024-117 was paid in full on 3 September.',
  'All parts must be inspected before delivery.',
];
export const CHINESE_LINES = [
  '本合同自双方签字之日起生效。',
  '季度报告显示收入增长了百分之十二。',
  '请在六月底之前完成付款。',
  '仓库将在国庆节期间暂停发货。',
  '所有零件在交付前必须经过检验。',
  '会议纪要已经发送给各部门负责人。',
];
