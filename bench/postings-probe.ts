/**
 * A feasibility probe for #24's keyword targets, not part of the engine: can an inverted index of our
 * own, whose postings can be skipped, pick the keyword stage's candidates faster than FTS5, with the same
 * scores? FTS5's bm25 must score every row that holds a choosing term (stop 37: 1.4–2.5 µs a row).
 *
 * On bench:search's knowledge base of N chunks it copies `chunks_fts` into memory: each term's rows and
 * its column-weighted count in each (through an fts5vocab `instance` table), and each row's length. Then,
 * for each benchmark query's terms, it takes the best 50 rows holding a choosing term, scored over all
 * the terms. It does this twice:
 * - as the keyword stage does, with FTS5 (`bm25(chunks_fts, 1, 4, 2)`);
 * - with MaxScore over the postings. Each term's highest score in any row bounds what it can add. Once
 *   the 50th best score passes the sum of the lowest bounds, those terms' lists stop proposing rows and
 *   are only looked up, by galloping search, for rows the others propose.
 *
 * It prints CPU per query for both, how many top-50s are the same rows in the same order (and how many
 * differ only in the order of rows of equal score), and the largest relative score difference. The copy is in
 * memory (8 bytes a posting: 15 M postings, 115 MB at 100k chunks), so 1M chunks would need postings
 * on disk.
 *
 * Usage: tsx bench/postings-probe.ts [--chunks 100000] [--queries 200]
 */
import { keywordTerms, matchExpression, stageTerms } from '../electron/core/search/keyword-terms';
import { KEYWORD_WEIGHTS } from '../electron/core/search/keyword';
import { B, K1 } from '../electron/core/search/own-terms';
import { indexAverages, totalOfVarints } from '../electron/core/search/term-stats';
import { fmt, machineLine, percentile } from './measure';
import { ensureSearchKb } from './search-kb';
import { cpuSince, makeQueries } from './search-run';

const TOP = 50;

function parseArgs(argv: string[]): { chunks: number; queries: number } {
  const args = { chunks: 100_000, queries: 200 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--chunks') args.chunks = Number(argv[++i]);
    else if (argv[i] === '--queries') args.queries = Number(argv[++i]);
    else throw new Error(`postings-probe: unknown argument "${argv[i]}" (see the usage at the top of bench/postings-probe.ts)`);
  }
  return args;
}

/** Every term's rows in ascending order with its weighted count in each, and every row's length. */
interface Postings {
  rows: Int32Array;
  weighted: Float32Array;
  /** term → [first, end) into rows/weighted. */
  terms: Map<string, [number, number]>;
  length: Float64Array;
  count: number;
  avgLength: number;
}

function copyIndex(db: import('better-sqlite3').Database): Postings {
  const maxId = db.prepare('SELECT max(id) FROM chunks').pluck().get() as number;
  const length = new Float64Array(maxId + 1);
  for (const [id, sz] of db.prepare('SELECT id, sz FROM chunks_fts_docsize').raw().iterate() as Iterable<[number, Uint8Array]>) {
    length[id] = totalOfVarints(sz);
  }
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_instances USING fts5vocab('main', 'chunks_fts', 'instance')`);
  const weightOf: Record<string, number> = { tokens: KEYWORD_WEIGHTS.body, title: KEYWORD_WEIGHTS.title, path: KEYWORD_WEIGHTS.path };
  let rows = new Int32Array(1 << 22);
  let weighted = new Float32Array(1 << 22);
  const terms = new Map<string, [number, number]>();
  let n = 0;
  let term: string | null = null;
  let first = 0;
  let row = -1;
  for (const [t, doc, col] of db.prepare('SELECT term, doc, col FROM temp.chunks_instances').raw().iterate() as Iterable<[string, number, string]>) {
    if (t !== term) {
      if (term !== null) terms.set(term, [first, n]);
      term = t;
      first = n;
      row = -1;
    }
    if (doc !== row) {
      if (n === rows.length) {
        const r = new Int32Array(n * 2);
        r.set(rows);
        rows = r;
        const w = new Float32Array(n * 2);
        w.set(weighted);
        weighted = w;
      }
      rows[n] = doc;
      weighted[n] = 0;
      n++;
      row = doc;
    }
    weighted[n - 1] = weighted[n - 1]! + (weightOf[col] ?? 0);
  }
  if (term !== null) terms.set(term, [first, n]);
  const { rows: count, avgTokens } = indexAverages(db);
  return { rows, weighted, terms, length, count, avgLength: avgTokens };
}

/** One term's list during a query. */
interface List {
  idf: number;
  bound: number;
  at: number;
  end: number;
}

/** Best `TOP` rows holding a choosing term, scored over all terms as FTS5's bm25 scores them; ties to the lower row. */
function topRows(p: Postings, choosing: string[], scoring: string[], bounds: Map<string, number>): { id: number; score: number }[] {
  const idf = (df: number) => {
    const v = Math.log((p.count - df + 0.5) / (df + 0.5));
    return v <= 0 ? 1e-6 : v;
  };
  const score = (l: List, i: number) => {
    const f = p.weighted[i]!;
    return (l.idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * p.length[p.rows[i]!]!) / p.avgLength));
  };
  const list = (t: string): List | null => {
    const range = p.terms.get(t);
    if (!range) return null;
    const l: List = { idf: idf(range[1] - range[0]), bound: 0, at: range[0], end: range[1] };
    let bound = bounds.get(t);
    if (bound === undefined) {
      bound = 0;
      for (let i = l.at; i < l.end; i++) bound = Math.max(bound, score(l, i));
      bounds.set(t, bound);
    }
    l.bound = bound;
    return l;
  };
  // Choosing lists by bound, lowest first; scoring lists never propose a row.
  const proposing = choosing.map(list).filter((l): l is List => l !== null).sort((a, b) => a.bound - b.bound);
  const looked = scoring.map(list).filter((l): l is List => l !== null);
  const lookedBound = looked.reduce((sum, l) => sum + l.bound, 0);
  const upTo: number[] = [];
  proposing.reduce((sum, l) => (upTo.push(sum + l.bound), sum + l.bound), lookedBound);
  const seek = (l: List, id: number): number => {
    let lo = l.at;
    let step = 1;
    while (lo + step < l.end && p.rows[lo + step]! < id) {
      lo += step;
      step *= 2;
    }
    let hi = Math.min(lo + step, l.end);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (p.rows[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    l.at = lo;
    return lo < l.end && p.rows[lo] === id ? lo : -1;
  };
  const heap = new MinHeap();
  let threshold = -Infinity;
  let essential = 0; // proposing[essential..] propose rows; those before only add to them
  for (;;) {
    let id = Infinity;
    for (let j = essential; j < proposing.length; j++) {
      const l = proposing[j]!;
      if (l.at < l.end && p.rows[l.at]! < id) id = p.rows[l.at]!;
    }
    if (id === Infinity) break;
    let s = 0;
    for (let j = essential; j < proposing.length; j++) {
      const l = proposing[j]!;
      if (l.at < l.end && p.rows[l.at] === id) s += score(l, l.at++);
    }
    let rest = essential > 0 ? upTo[essential - 1]! : lookedBound;
    for (let j = essential - 1; j >= 0 && s + rest >= threshold; j--) {
      rest -= proposing[j]!.bound;
      const i = seek(proposing[j]!, id);
      if (i >= 0) s += score(proposing[j]!, i);
    }
    for (const l of looked) {
      if (s + rest < threshold) break;
      rest -= l.bound;
      const i = seek(l, id);
      if (i >= 0) s += score(l, i);
    }
    if (heap.size < TOP) heap.push(s, id);
    else if (s > threshold) heap.replaceTop(s, id);
    else continue;
    if (heap.size === TOP) {
      threshold = heap.topScore();
      while (essential < proposing.length && upTo[essential]! < threshold) essential++;
    }
  }
  return heap.sorted();
}

/** A min-heap of (score, row) by score, a higher row counting as lower on ties (so the lower row stays). */
class MinHeap {
  private readonly scores: number[] = [];
  private readonly ids: number[] = [];
  get size(): number {
    return this.scores.length;
  }
  topScore(): number {
    return this.scores[0]!;
  }
  private less(i: number, j: number): boolean {
    return this.scores[i]! < this.scores[j]! || (this.scores[i] === this.scores[j] && this.ids[i]! > this.ids[j]!);
  }
  private swap(i: number, j: number): void {
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.ids[i], this.ids[j]] = [this.ids[j]!, this.ids[i]!];
  }
  push(score: number, id: number): void {
    this.scores.push(score);
    this.ids.push(id);
    for (let i = this.size - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!this.less(i, up)) break;
      this.swap(i, up);
      i = up;
    }
  }
  replaceTop(score: number, id: number): void {
    this.scores[0] = score;
    this.ids[0] = id;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.less(l, m)) m = l;
      if (r < this.size && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  sorted(): { id: number; score: number }[] {
    return this.scores.map((score, i) => ({ id: this.ids[i]!, score })).sort((a, b) => b.score - a.score || a.id - b.id);
  }
}

async function main(): Promise<void> {
  const { chunks, queries: count } = parseArgs(process.argv.slice(2));
  console.log(`postings-probe — ${new Date().toISOString()}\n  ${machineLine()}`);
  const kb = await ensureSearchKb(chunks, 'cone');
  const db = kb.db;
  const c0 = process.cpuUsage();
  const postings = copyIndex(db);
  console.log(`  copied ${postings.terms.size.toLocaleString()} terms of ${kb.chunks.toLocaleString()} chunks in ${fmt(cpuSince(c0) / 1000, 1)} s CPU`);
  const { body, title, path } = KEYWORD_WEIGHTS;
  const bm25 = `bm25(chunks_fts, ${body}, ${title}, ${path})`;
  const statement = db.prepare(`SELECT rowid AS id, -${bm25} AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY ${bm25} LIMIT ${TOP}`);
  const bounds = new Map<string, number>();
  const fts: number[] = [];
  const own: number[] = [];
  let same = 0;
  let tiesOnly = 0;
  let compared = 0;
  let worst = 0;
  for (const query of makeQueries(count, 'cone')) {
    const terms = stageTerms(db, keywordTerms(db, query.text));
    const choose = matchExpression(terms.choosing);
    if (!choose) continue;
    const scoring = matchExpression(terms.scoring);
    const expressions = scoring ? [`(${choose}) AND (${scoring})`, `(${choose}) NOT (${scoring})`] : [choose];
    let c = process.cpuUsage();
    const reference = expressions
      .flatMap((m) => statement.all(m) as { id: number; score: number }[])
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, TOP);
    fts.push(cpuSince(c));
    c = process.cpuUsage();
    const mine = topRows(postings, terms.choosing, terms.scoring, bounds);
    own.push(cpuSince(c));
    compared++;
    if (reference.map((r) => r.id).join() === mine.map((r) => r.id).join()) same++;
    else if (reference.length === mine.length && reference.every((r, i) => Math.abs(r.score - mine[i]!.score) <= 1e-12 * r.score)) tiesOnly++;
    reference.forEach((r, i) => (worst = Math.max(worst, Math.abs(r.score - (mine[i]?.score ?? 0)) / r.score)));
  }
  console.log(`  ${compared} queries; the same top ${TOP} in ${same}, the same scores in another order of equal ones in ${tiesOnly};` +
    ` largest relative score difference ${worst.toExponential(1)}`);
  console.log(`  FTS5      CPU p50 ${fmt(percentile(fts, 50), 3)} ms, p95 ${fmt(percentile(fts, 95), 3)} ms`);
  console.log(`  postings  CPU p50 ${fmt(percentile(own, 50), 3)} ms, p95 ${fmt(percentile(own, 95), 3)} ms (bounds of first-seen terms included)`);
  console.log(`  ${machineLine()}`);
  db.close();
}

await main();
