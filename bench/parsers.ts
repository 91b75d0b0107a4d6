/**
 * `npm run bench:parsers` — how fast each parser reads a file, by size: MB/s (CPU) of `parseFile` on
 * generated HTML, Markdown, plain text, code, PDF and Word files of 1, 4 and 16 MB. A parser whose
 * work grows with the square of the file shows at a glance: its MB/s falls as the size grows (an 8 MB
 * HTML manual took 15 minutes before its writer was made linear).
 *
 * Usage: tsx bench/parsers.ts [--sizes 1,4,16] [--kinds html,markdown,text,code,pdf,docx]
 */
import { fileURLToPath } from 'node:url';
import { parseFile } from '../electron/core/ingest/parse';
import { buildDocx, buildPdf } from '../electron/core/ingest/parse/fixtures';
import { fmt, machineLine } from './measure';

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
      // WinAnsi text: one page of 45 lines, repeated (about 3.5 KB of content a page).
      const lines = Array.from({ length: 45 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog again.`);
      return buildPdf(Array.from({ length: Math.ceil(bytes / 3_500) }, (_, p) => lines.map((l) => `${p} ${l}`)));
    }
    case 'docx': {
      const paragraphs = repeatTo(bytes, (n) => `Paragraph ${n}: the quick brown fox jumps over the lazy dog. 第${n}段。`);
      return buildDocx(paragraphs.map((text, n) => (n % 40 === 0 ? { text: `Chapter ${n / 40}`, heading: 2 as const } : { text })));
    }
  }
}

/** MB/s (of the file's bytes, per CPU second) of parsing one generated file of `mb` megabytes. */
export async function parserSpeed(kind: ParserKind, mb: number): Promise<{ mbPerSecond: number; seconds: number; textChars: number }> {
  const bytes = await generated(kind, mb);
  const c0 = process.cpuUsage();
  const doc = await parseFile(PARSER_KINDS[kind], bytes);
  const c = process.cpuUsage(c0);
  const seconds = (c.user + c.system) / 1e6;
  return { mbPerSecond: bytes.length / MB / seconds, seconds, textChars: doc.text.length };
}

function parseArgs(argv: string[]): { sizes: number[]; kinds: ParserKind[] } {
  const args = { sizes: [1, 4, 16], kinds: Object.keys(PARSER_KINDS) as ParserKind[] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sizes') args.sizes = argv[++i]!.split(',').map(Number);
    else if (argv[i] === '--kinds') args.kinds = argv[++i]!.split(',') as ParserKind[];
    else throw new Error(`bench:parsers: unknown argument "${argv[i]}" (see the usage at the top of bench/parsers.ts)`);
  }
  return args;
}

async function main(): Promise<void> {
  const { sizes, kinds } = parseArgs(process.argv.slice(2));
  console.log(`bench:parsers — ${new Date().toISOString()}\n  ${machineLine()}`);
  console.log(`  ${'parser'.padEnd(10)}${sizes.map((s) => `${s} MB`.padStart(12)).join('')}   (MB/s per CPU second; 16 vs 1 MB)`);
  for (const kind of kinds) {
    await parserSpeed(kind, 0.25); // warm-up: the parser's modules and JIT
    const speeds: number[] = [];
    for (const size of sizes) speeds.push((await parserSpeed(kind, size)).mbPerSecond);
    const ratio = speeds[speeds.length - 1]! / speeds[0]!;
    console.log(`  ${kind.padEnd(10)}${speeds.map((s) => fmt(s, 2).padStart(12)).join('')}   ×${fmt(ratio, 2)}${ratio < 0.5 ? '  ✗ grows faster than the file' : ''}`);
  }
  console.log(`  ${machineLine()}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
