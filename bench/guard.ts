/**
 * `npm run bench:guard` — a speed budget CI keeps (run by .ci/run after the tests). In one process, on a
 * 20,000-chunk benchmark knowledge base, it times Sift's keyword, vector and hybrid searches and a stock
 * FTS5 unicode61 index of the same chunks (bench/stock-fts.ts), in CPU time per query, and each parser's
 * MB/s at 1 and 16 MB (bench/parsers.ts). It fails when a search's CPU time per query exceeds its
 * recorded multiple of the stock figure by more than 2×, or a parser's MB/s at 16 MB falls below half its
 * 1 MB figure: gross regressions (a query per term, a writer that copies its whole output), not noise.
 * Ratios to the stock figure, not milliseconds, so a slower machine moves both sides.
 *
 * Usage: tsx bench/guard.ts [--record]   (--record prints the multiples to put in RECORDED)
 */
import { fmt, machineLine, percentile } from './measure';
import { PARSER_KINDS, parserSpeed, type ParserKind } from './parser-speed';
import { ensureSearchKb } from './search-kb';
import { makeQueries, timeMode } from './search-run';
import { stockIndex, timeStock } from './stock-fts';

/**
 * Sift's mean CPU time per query as a multiple of stock FTS5's on the same chunks, as measured when this
 * budget was set (2026-12-02, 20k chunks, 200 queries, `tsx bench/guard.ts --record`: keyword 6.97×,
 * vector 8.47×, hybrid 13.40×; 16, 14 and 21 statements per search): the guard fails above twice these.
 */
const RECORDED = { keyword: 7, vector: 8.5, hybrid: 13.5 } as const;
/** Fail when a search costs more than this times its recorded multiple. */
const SEARCH_SLACK = 2;
/** Fail when a parser's MB/s at 16 MB is below this share of its 1 MB figure. */
const PARSER_FLOOR = 0.5;
const CHUNKS = 20_000;

const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

async function searchBudget(record: boolean): Promise<string[]> {
  const failures: string[] = [];
  const kb = await ensureSearchKb(CHUNKS, 'cone');
  const queries = makeQueries(200, 'cone');
  const index = stockIndex(kb);
  try {
    const stock = mean(timeStock(index, queries).cpu);
    console.log(`  stock FTS5 unicode61, ${fmt(CHUNKS, 0)} chunks: ${fmt(stock, 3)} ms CPU per query`);
    for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
      const t = await timeMode(kb, queries, mode, 10);
      const ratio = t.cpuMean / stock;
      const limit = RECORDED[mode] * SEARCH_SLACK;
      const ok = ratio <= limit;
      if (!ok) failures.push(`${mode} search costs ${fmt(ratio, 1)}× stock FTS5 (budget ${fmt(limit, 1)}×)`);
      const marks = record ? '' : `  budget ≤ ${fmt(limit, 1)}×  ${ok ? '✓' : '✗'}`;
      console.log(`  ${mode.padEnd(8)} ${fmt(t.cpuMean, 3)} ms CPU per query (p50 ${fmt(t.cpuP50, 3)}) = ${fmt(ratio, 2)}× stock;` +
        ` ${percentile(t.statements, 50)} statements${marks}`);
    }
  } finally {
    index.close();
    kb.db.close();
  }
  return failures;
}

async function parserBudget(): Promise<string[]> {
  const failures: string[] = [];
  for (const kind of Object.keys(PARSER_KINDS) as ParserKind[]) {
    await parserSpeed(kind, 0.25);
    const small = (await parserSpeed(kind, 1)).mbPerSecond;
    const large = (await parserSpeed(kind, 16)).mbPerSecond;
    const ratio = large / small;
    const ok = ratio >= PARSER_FLOOR;
    if (!ok) failures.push(`the ${kind} parser reads 16 MB at ${fmt(ratio, 2)}× its 1 MB speed (floor ${PARSER_FLOOR}×)`);
    console.log(`  ${kind.padEnd(8)} ${fmt(small, 2)} MB/s at 1 MB, ${fmt(large, 2)} at 16 MB = ×${fmt(ratio, 2)}  ${ok ? '✓' : '✗'}`);
  }
  return failures;
}

async function main(): Promise<void> {
  const record = process.argv.includes('--record');
  console.log(`bench:guard — ${new Date().toISOString()}\n  ${machineLine()}`);
  const failures = [...(await searchBudget(record)), ...(await parserBudget())];
  console.log(`  ${machineLine()}`);
  if (failures.length > 0 && !record) {
    for (const f of failures) console.error(`bench:guard: ${f}`);
    process.exit(1);
  }
  console.log('bench:guard: within budget');
}

await main();
