/**
 * Chinese text in a printed PDF that copies and searches as the characters it shows. Chromium (Skia)
 * writes each font's ToUnicode map from the font's own cmap, taking the lowest code point for a glyph.
 * CJK fonts such as Noto Sans CJK draw a Kangxi radical (U+2F00…) and its ideograph with one glyph,
 * so 几 网 手 长 came out of a PDF as ⼏ ⽹ ⼿ ⻓. This rewrites those maps to the ideographs and
 * rebuilds the cross-reference table; the page content (the glyphs drawn) is never touched.
 */
import zlib from 'node:zlib';

// The CJK Radicals Supplement has no compatibility mapping to the ideographs (unlike the Kangxi
// radicals, which NFKC maps). These are the radicals Noto Sans CJK SC draws with an ideograph's glyph,
// measured by printing U+4E00–U+9FFF with Chromium and reading the PDF back with pdf.js.
const SUPPLEMENT: Record<number, number> = {
  0x2e82: 0x4e5b, 0x2e83: 0x4e5a, 0x2e85: 0x4ebb, 0x2e89: 0x5202, 0x2e8f: 0x5c23, 0x2e90: 0x5c22, 0x2e92: 0x5df3,
  0x2e93: 0x5e7a, 0x2e94: 0x5f51, 0x2e95: 0x5f50, 0x2e96: 0x5fc4, 0x2e98: 0x624c, 0x2e99: 0x6535, 0x2e9b: 0x65e1,
  0x2e9e: 0x6b7a, 0x2e9f: 0x6bcd, 0x2ea0: 0x6c11, 0x2ea1: 0x6c35, 0x2ea3: 0x706c, 0x2ea4: 0x722b, 0x2ea6: 0x4e2c,
  0x2ea8: 0x72ad, 0x2ead: 0x793b, 0x2eaf: 0x7cf9, 0x2eb0: 0x7e9f, 0x2eb1: 0x7f53, 0x2eb9: 0x8002, 0x2eba: 0x8080,
  0x2ebe: 0x8279, 0x2ec2: 0x8864, 0x2ec5: 0x89c1, 0x2ec6: 0x89d2, 0x2ec8: 0x8ba0, 0x2ec9: 0x8d1d, 0x2ecb: 0x8f66,
  0x2ecc: 0x8fb6, 0x2ed0: 0x9485, 0x2ed1: 0x9577, 0x2ed2: 0x9578, 0x2ed3: 0x957f, 0x2ed4: 0x95e8, 0x2ed6: 0x961d,
  0x2ed8: 0x9752, 0x2ed9: 0x97e6, 0x2eda: 0x9875, 0x2edb: 0x98ce, 0x2edc: 0x98de, 0x2edd: 0x98df, 0x2edf: 0x98e0,
  0x2ee0: 0x9963, 0x2ee2: 0x9a6c, 0x2ee3: 0x9aa8, 0x2ee4: 0x9b3c, 0x2ee5: 0x9c7c, 0x2ee6: 0x9e1f, 0x2ee7: 0x5364,
  0x2ee8: 0x9ea6, 0x2ee9: 0x9ec4, 0x2eea: 0x9efe, 0x2eeb: 0x6589, 0x2eec: 0x9f50, 0x2eee: 0x9f7f, 0x2eef: 0x7adc,
  0x2ef0: 0x9f99, 0x2ef1: 0x9f9c, 0x2ef2: 0x4e80, 0x2ef3: 0x9f9f,
};

/** The ideograph a radical stands for in running text; any other character unchanged. */
export function ideographOf(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code >= 0x2f00 && code <= 0x2fdf) return ch.normalize('NFKC');
  const mapped = SUPPLEMENT[code];
  return mapped === undefined ? ch : String.fromCodePoint(mapped);
}

const RADICALS = /[\u2e80-\u2eff\u2f00-\u2fdf]/u;

/** A ToUnicode CMap's destination (UTF-16BE hex) with radicals replaced by their ideographs. */
function fixDestination(hex: string): string {
  const units: number[] = [];
  for (let i = 0; i < hex.length; i += 4) units.push(parseInt(hex.slice(i, i + 4), 16));
  const text = String.fromCharCode(...units);
  if (!RADICALS.test(text)) return hex;
  const fixed = [...text].map(ideographOf).join('');
  let out = '';
  for (let i = 0; i < fixed.length; i++) out += fixed.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return out;
}

function hexAdd(hex: string, n: number): string {
  return (parseInt(hex, 16) + n).toString(16).toUpperCase().padStart(hex.length, '0');
}

/**
 * A ToUnicode CMap with every radical destination replaced. Ranges are written out as single
 * mappings, since the fixed ideographs no longer follow one another.
 */
export function fixToUnicodeCMap(cmap: string): string {
  if (!RADICALS.test(decodeAll(cmap))) return cmap;
  const pairs: [string, string][] = [];
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) pairs.push([m[1]!, m[2]!]);
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g)) {
      const count = parseInt(m[2]!, 16) - parseInt(m[1]!, 16) + 1;
      const list = m[3]!.startsWith('[') ? [...m[3]!.matchAll(/<([0-9A-Fa-f]+)>/g)].map((d) => d[1]!) : null;
      for (let i = 0; i < count; i++) pairs.push([hexAdd(m[1]!, i), list ? list[i]! : hexAdd(m[3]!.slice(1, -1), i)]);
    }
  }
  const blocks: string[] = [];
  for (let i = 0; i < pairs.length; i += 100) {
    const chunk = pairs.slice(i, i + 100).map(([src, dst]) => `<${src}> <${fixDestination(dst)}>`);
    blocks.push(`${chunk.length} beginbfchar\n${chunk.join('\n')}\nendbfchar`);
  }
  const first = cmap.search(/\d+\s+beginbf(char|range)/);
  const last = Math.max(cmap.lastIndexOf('endbfchar') + 9, cmap.lastIndexOf('endbfrange') + 10);
  return `${cmap.slice(0, first)}${blocks.join('\n')}${cmap.slice(last)}`;
}

/** Every destination of a CMap decoded, to see cheaply whether any radical is there. */
function decodeAll(cmap: string): string {
  const first = (m: RegExpMatchArray) => String.fromCharCode(parseInt(m[1]!.slice(0, 4), 16));
  return [...cmap.matchAll(/<([0-9A-Fa-f]{4,})>/g)].map(first).join('');
}

interface PdfObject {
  start: number;
  end: number;
}

/** Where object `n` is, from the classic cross-reference table, or null. */
function objectAt(pdf: string, offsets: number[], n: number): PdfObject | null {
  const start = offsets[n];
  if (start === undefined || !pdf.startsWith(`${n} 0 obj`, start)) return null;
  const end = pdf.indexOf('endobj', start);
  return end < 0 ? null : { start, end: end + 'endobj'.length };
}

/** A ToUnicode stream object rewritten, or null when it needs no change (or is not one this can read). */
function fixStreamObject(n: number, text: string): string | null {
  const head = /^\d+ 0 obj\s*<<([\s\S]*?)>>\s*stream\r?\n/.exec(text);
  if (!head) return null;
  const length = /\/Length (\d+)(?!\s+\d+\s+R)/.exec(head[1]!);
  if (!length) return null;
  const data = Buffer.from(text.slice(head[0].length, head[0].length + Number(length[1])), 'latin1');
  const flate = /\/Filter\s*\/FlateDecode/.test(head[1]!);
  const cmap = (flate ? zlib.inflateSync(data) : data).toString('latin1');
  const fixed = fixToUnicodeCMap(cmap);
  if (fixed === cmap) return null;
  const body = flate ? zlib.deflateSync(Buffer.from(fixed, 'latin1')) : Buffer.from(fixed, 'latin1');
  const dict = flate ? '/Filter /FlateDecode' : '';
  return `${n} 0 obj\n<<${dict} /Length ${body.length}>> stream\n${body.toString('latin1')}\nendstream\nendobj`;
}

/**
 * `pdf` with its ToUnicode maps naming ideographs rather than radicals. A PDF this cannot read
 * (cross-reference streams, incremental updates) is returned as it is.
 */
export function fixPdfRadicals(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (!startxref || text.indexOf('startxref') !== text.lastIndexOf('startxref')) return pdf;
  const xrefAt = Number(startxref[1]);
  const table = /^xref\s+0 (\d+)\s+/.exec(text.slice(xrefAt));
  if (!table) return pdf;
  const size = Number(table[1]);
  const entriesAt = xrefAt + table[0].length;
  if (text.length < entriesAt + size * 20) return pdf;
  // Each entry is 20 bytes: a 10-digit offset, a generation, `n` (in use) or `f` (free).
  const entries = text.slice(entriesAt, entriesAt + size * 20).match(/.{20}/gs) ?? [];
  const offsets = entries.map((e) => Number(e.slice(0, 10)));
  const replaced: { obj: PdfObject; text: string }[] = [];
  const targets = new Set([...text.matchAll(/\/ToUnicode (\d+) 0 R/g)].map((m) => Number(m[1])));
  for (const n of targets) {
    const obj = objectAt(text, offsets, n);
    const fixed = obj && fixStreamObject(n, text.slice(obj.start, obj.end));
    if (obj && fixed) replaced.push({ obj, text: fixed });
  }
  if (!replaced.length) return pdf;
  replaced.sort((a, b) => a.obj.start - b.obj.start);
  const growth = (r: { obj: PdfObject; text: string }) => r.text.length - (r.obj.end - r.obj.start);
  const shift = (offset: number) =>
    offset + replaced.filter((r) => r.obj.end <= offset).reduce((d, r) => d + growth(r), 0);
  let out = '';
  let at = 0;
  for (const r of replaced) {
    out += text.slice(at, r.obj.start) + r.text;
    at = r.obj.end;
  }
  out += text.slice(at, xrefAt);
  const moved = (e: string, i: number) => `${String(shift(offsets[i]!)).padStart(10, '0')}${e.slice(10)}`;
  const newEntries = entries.map((e, i) => (e[17] === 'n' && i > 0 ? moved(e, i) : e));
  const trailer = text.slice(entriesAt + size * 20, startxref.index);
  const newXrefAt = out.length;
  out += `xref\n0 ${size}\n${newEntries.join('')}${trailer}startxref\n${newXrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
