/**
 * Generated files of any size for each parser, and how fast parseFile reads one (MB per CPU second);
 * shared by bench/parsers.ts and bench/guard.ts.
 */
import { parseFile } from '../electron/core/ingest/parse';
import { buildDocx, buildPdf } from '../electron/core/ingest/parse/fixtures';

/** The kinds measured, with the file name that picks their parser. */
export const PARSER_KINDS = { html: 'manual.html', markdown: 'notes.md', text: 'notes.txt', code: 'big.ts', pdf: 'book.pdf', docx: 'report.docx' } as const;
export type ParserKind = keyof typeof PARSER_KINDS;

const MB = 1024 * 1024;

/** Repeat `unit(n)` for n = 0, 1, … until the pieces reach `bytes`. */
function repeatTo(bytes: number, unit: (n: number) => string): string[] {
  const out: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const piece = unit(n);
    out.push(piece);
    size += piece.length;
  }
  return out;
}

const html = (n: number) =>
  `<h2 id="s${n}">Section ${n} <code>fs.read${n}()</code></h2><p>The <b>quick</b> brown <a href="#x">fox ${n}</a> jumps   over\n` +
  ` the lazy dog. 中文段落第${n}节，用于测试。</p><table><tr><td>key${n}</td><td>value ${n}</td></tr></table>` +
  `<pre>const x${n} = ${n};\n  return x${n};</pre><ul><li>item ${n}</li><li>other&nbsp;${n}</li></ul>\n`;
const markdown = (n: number) =>
  `## Section ${n}\n\nThe **quick** brown [fox ${n}](#x) jumps over the lazy dog. 中文段落第${n}节。\n\n` +
  `- item ${n}\n- other ${n}\n\n| key | value |\n| --- | --- |\n| k${n} | v${n} |\n\n\`\`\`ts\nconst x${n} = ${n};\n\`\`\`\n\n`;
const line = (n: number) => `Line ${n}: the quick brown fox jumps over the lazy dog, 第${n}行中文文本。\n`;
const code = (n: number) => `export function handler${n}(input: string): number {\n  return input.length + ${n}; // E_CODE_${n}\n}\n\n`;

/** A generated file of about `mb` megabytes of the given kind. */
export async function generated(kind: ParserKind, mb: number): Promise<Buffer> {
  const bytes = mb * MB;
  switch (kind) {
    case 'html':
      return Buffer.from(`<!doctype html><html><head><title>Manual</title></head><body>${repeatTo(bytes, html).join('')}</body></html>`);
    case 'markdown':
      return Buffer.from(`# Notes\n\n${repeatTo(bytes, markdown).join('')}`);
    case 'text':
      return Buffer.from(repeatTo(bytes, line).join(''));
    case 'code':
      return Buffer.from(repeatTo(bytes, code).join(''));
    case 'pdf': {
      // WinAnsi text: one page of 45 lines, repeated (about 3.5 KB of content a page). The pages hang
      // from a page tree of 32 kids a node, as large documents' producers write them: with all 4,794
      // pages of 16 MB in one flat list, pdf.js walks the list for every page it looks up, and that
      // square (its, not Sift's: ×0.70 at 16 MB against ×1.00) would hide any of Sift's.
      const lines = Array.from({ length: 45 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog again.`);
      return buildPdf(Array.from({ length: Math.ceil(bytes / 3_500) }, (_, p) => lines.map((l) => `${p} ${l}`)), { pagesPerNode: 32 });
    }
    case 'docx': {
      const paragraphs = repeatTo(bytes, (n) => `Paragraph ${n}: the quick brown fox jumps over the lazy dog. 第${n}段。`);
      return buildDocx(paragraphs.map((text, n) => (n % 40 === 0 ? { text: `Chapter ${n / 40}`, heading: 2 as const } : { text })));
    }
  }
}

/**
 * MB/s (of the file's bytes, per CPU second) of parsing one generated file of `mb` megabytes: the best of
 * as many parses as fit in `budgetSeconds` of CPU (at least one, at most 15). A fast parser reads 1 MB in a
 * few milliseconds, where one garbage collection or a cold cache halves a single figure; the best of several
 * is what the parser itself costs, and a square in its size still shows in full.
 */
export async function parserSpeed(
  kind: ParserKind,
  mb: number,
  budgetSeconds = 1.5,
): Promise<{ mbPerSecond: number; seconds: number; textChars: number; runs: number }> {
  const bytes = await generated(kind, mb);
  let best = Infinity;
  let total = 0;
  let runs = 0;
  let textChars = 0;
  while (runs === 0 || (total < budgetSeconds && runs < 15)) {
    const c0 = process.cpuUsage();
    const doc = await parseFile(PARSER_KINDS[kind], bytes);
    const c = process.cpuUsage(c0);
    const seconds = (c.user + c.system) / 1e6;
    best = Math.min(best, seconds);
    total += seconds;
    runs++;
    textChars = doc.text.length;
  }
  return { mbPerSecond: bytes.length / MB / best, seconds: best, textChars, runs };
}
