/**
 * `npm run bench:parsers` — how fast each parser reads a file, by size: MB/s (CPU) of `parseFile` on
 * generated HTML, Markdown, plain text, code, PDF and Word files of 1, 4 and 16 MB. A parser whose
 * work grows with the square of the file shows at a glance: its MB/s falls as the size grows (an 8 MB
 * HTML manual took 15 minutes before its writer was made linear).
 *
 * Usage: tsx bench/parsers.ts [--sizes 1,4,16] [--kinds html,markdown,text,code,pdf,docx]
 */
import { fmt, machineLine } from './measure';
import { PARSER_KINDS, parserSpeed, type ParserKind } from './parser-speed';

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

await main();
