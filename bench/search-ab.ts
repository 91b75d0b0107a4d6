/**
 * `npx tsx bench/search-ab.ts --base DIR` — this checkout's search against another's, on one machine at
 * one moment: both run in this process on one knowledge base (bench:search's, `--vectors cone`), query
 * by query, which goes first alternating. On these shared 2-core machines the speed of the whole box
 * drifts by half within minutes (the stock FTS5 figure of two bench:search runs moved 0.85 → 1.64 ms),
 * which swamps a 5 % change between two runs; side by side, drift hits both alike.
 *
 * Usage: tsx bench/search-ab.ts --base DIR [--chunks N] [--modes keyword,vector,hybrid] [--queries N]
 *   --base     another checkout of Sift, e.g. `git worktree add /tmp/base <commit>` with this checkout's
 *              node_modules linked into it (`ln -s $PWD/node_modules /tmp/base/node_modules`). Required.
 *   --chunks   knowledge-base size, in chunks. Default 100,000.
 *   --modes    search modes to compare. Default keyword,hybrid.
 *   --queries  timed queries per mode (after a warm-up of 30). Default 200.
 *
 * Prints, per mode, CPU time per search (p50 and mean) of each side, their ratio, and in how many
 * searches both returned the same passages in the same order (a speed change must not change results).
 */
import path from 'node:path';
import type { SearchMode } from '../shared/models';
import * as here from '../electron/core/search/search';
import { RANKING_FEATURES } from '../electron/core/page-features';
import { fmt, machineLine, percentile } from './measure';
import { ensureSearchKb } from './search-kb';
import { InstantEmbedder, makeQueries } from './search-run';

interface Args {
  base: string;
  chunks: number;
  modes: SearchMode[];
  queries: number;
}

const WARM_UP = 30;

function parseArgs(argv: string[]): Args {
  const args: Args = { base: '', chunks: 100_000, modes: ['keyword', 'hybrid'], queries: 200 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    const need = (): string => {
      if (value === undefined) throw new Error(`${argv[i]} needs a value`);
      i++;
      return value;
    };
    switch (argv[i]) {
      case '--base': args.base = path.resolve(need()); break;
      case '--chunks': args.chunks = Number(need()); break;
      case '--modes': args.modes = need().split(',') as SearchMode[]; break;
      case '--queries': args.queries = Number(need()); break;
      default: throw new Error(`unknown option ${argv[i]} (see the top of bench/search-ab.ts)`);
    }
  }
  if (!args.base) throw new Error('--base DIR is required: another checkout of Sift to compare with');
  return args;
}

type Search = typeof here.searchKnowledgeBase;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const other = (await import(path.join(args.base, 'electron/core/search/search.ts'))) as typeof here;
  const otherFeatures = (await import(path.join(args.base, 'electron/core/page-features.ts'))) as { RANKING_FEATURES: typeof RANKING_FEATURES };
  console.log(`bench:search-ab — ${new Date().toISOString()}\n  ${machineLine()}\n  base ${args.base}, this ${process.cwd()}`);
  const kb = await ensureSearchKb(args.chunks, 'cone');
  const queries = makeQueries(args.queries + WARM_UP, 'cone');
  const embedder = new InstantEmbedder(kb.modelId);
  const sides = [
    { name: 'base', search: other.searchKnowledgeBase as Search, features: otherFeatures.RANKING_FEATURES },
    { name: 'this', search: here.searchKnowledgeBase, features: RANKING_FEATURES },
  ];
  console.log(`\n${fmt(args.chunks, 0)} chunks; ${args.queries} queries per mode after ${WARM_UP} warm-up; CPU ms per search`);
  for (const mode of args.modes) {
    const cpu: number[][] = [[], []];
    let same = 0;
    for (const [i, query] of queries.entries()) {
      embedder.current = query.vector;
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      const results: string[] = [];
      for (const s of order) {
        const side = sides[s]!;
        const start = process.cpuUsage();
        const found = await side.search(kb.db, { query: query.text, topK: 10, mode }, async () => embedder, { rankingFeatures: side.features });
        const used = process.cpuUsage(start);
        if (i >= WARM_UP) cpu[s]!.push((used.user + used.system) / 1000);
        results[s] = found.passages.map((p) => `${p.pagePath}:${p.start}-${p.end}`).join(' ');
      }
      if (i >= WARM_UP && results[0] === results[1]) same++;
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const [a, b] = cpu as [number[], number[]];
    console.log(
      `  ${mode.padEnd(8)} base p50 ${fmt(percentile(a, 50), 2)} mean ${fmt(mean(a), 2)} | this p50 ${fmt(percentile(b, 50), 2)} ` +
        `mean ${fmt(mean(b), 2)} | this/base p50 ${fmt(percentile(b, 50) / percentile(a, 50), 3)} mean ${fmt(mean(b) / mean(a), 3)}` +
        ` | same passages ${same}/${args.queries}`,
    );
  }
  console.log(`\n  ${machineLine()}`);
  kb.db.close();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
