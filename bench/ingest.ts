/**
 * `npm run bench:ingest` — indexing speed on a generated corpus (issue #3).
 *
 * Usage: tsx bench/ingest.ts [--files N] [--embed-files N] [--no-embed] [--phases]
 *   --files N        notes in the corpus. Default 10,000 (about 53 MB, 300 folders).
 *   --embed-files N  notes whose chunks the embedding figures use (the first N of the same corpus).
 *                    Default 2,000 (about 19,000 chunks): the test model embeds only ~250 chunks/s
 *                    here, and the model alone is timed twice; 0 means all of them.
 *   --no-embed       skip the embedding figures.
 *   --phases         also time the ingest's parts outside the engine (scan, prepare, write); see phases.ts.
 *   --progress-ms N  the indexer's progressIntervalMs (experiment; each progress event counts the
 *                    index). Default: the engine's default (150).
 *
 * Figures: keyword-only ingest time (≤ 15 s), no-change rescan (≤ 1 s, 0 chunks embedded),
 * embedding pipeline overhead over the model's own throughput (≤ 10 %), main-thread event-loop
 * lag p99 during the ingest (≤ 50 ms), peak RSS and database size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { IngestStatus } from '../shared/models';
import { TEST_MODEL_ID, writeTestModel } from '../electron/core/embed/testing/test-model';
import { createTransformersEmbedder } from '../electron/core/embed/transformers';
import { dataPaths } from '../electron/core/base/paths';
import type { IndexerOptions } from '../electron/core/ingest/indexer';
import { createSift, type Sift, type SiftConfig } from '../electron/core/sift';
import { ensureCorpus, FOLDER_COUNT, type CorpusInfo } from './corpus';
import { figure, fmt, machineLine, mb, note, RssSampler, since } from './measure';
import { timePhases } from './phases';

/** The test model's vector length here: the default model's, so vector writes cost what they will for users. */
const MODEL_DIMENSION = 384;
/** Chunks per embedding call, the indexer's default (RunOptions.embedBatch). */
const EMBED_BATCH = 32;

interface Args {
  files: number;
  embedFiles: number;
  embed: boolean;
  phases: boolean;
  progressMs: number | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { files: 10_000, embedFiles: 2_000, embed: true, phases: false, progressMs: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--files') args.files = Number(argv[++i]);
    else if (a === '--embed-files') args.embedFiles = Number(argv[++i]);
    else if (a === '--no-embed') args.embed = false;
    else if (a === '--phases') args.phases = true;
    else if (a === '--progress-ms') args.progressMs = Number(argv[++i]);
    else throw new Error(`bench:ingest: unknown argument "${a}" (see the usage at the top of bench/ingest.ts)`);
  }
  if (!Number.isInteger(args.files) || args.files < 1) throw new Error('bench:ingest: --files must be a whole number ≥ 1');
  return args;
}

/** What a timed run saw: wall time, when each state began, the final status. */
interface TimedRun {
  ms: number;
  status: IngestStatus;
  /** ms from the start of the run to the first progress event of each state. */
  stateAt: Partial<Record<IngestStatus['state'], number>>;
  /** CPU seconds of the whole process (every thread) at the first event of each state, and at the end. */
  cpuAt: Partial<Record<IngestStatus['state'], number>>;
  /** CPU seconds of the whole process when the run started, and at its end. */
  cpuStart: number;
  cpuEnd: number;
}

/** CPU seconds (user + system) used so far by this process, all threads together. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function timedIngest(sift: Sift, kbId: string): Promise<TimedRun> {
  const stateAt: TimedRun['stateAt'] = {};
  const cpuAt: TimedRun['cpuAt'] = {};
  const t0 = performance.now();
  const cpuStart = cpuSeconds();
  const stop = sift.onEvent((event, payload) => {
    if (event !== 'ingest.progress') return;
    const { state, kbId: id } = payload as IngestStatus;
    if (id !== kbId || stateAt[state] !== undefined) return;
    stateAt[state] = since(t0);
    cpuAt[state] = cpuSeconds();
  });
  try {
    const status = await sift.ingest(kbId);
    return { ms: since(t0), status, stateAt, cpuAt, cpuStart, cpuEnd: cpuSeconds() };
  } finally {
    stop();
  }
}

function kbFileSize(dataDir: string, kbId: string): number {
  const file = dataPaths(dataDir).kbDb(kbId);
  return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

async function newKb(sift: Sift, name: string, folder: string): Promise<string> {
  const kb = await sift.handlers['kb.create']({ name });
  await sift.handlers['folder.add']({ kb: kb.id, path: folder });
  return kb.id;
}

function printRunProblems(status: IngestStatus): void {
  if (status.error) note('run error', status.error);
  if (status.filesFailed || status.filesSkipped) note('files failed / skipped', `${status.filesFailed} / ${status.filesSkipped}`);
}

/** Figures 1, 2, 4, 5 (keyword part): the keyword-only ingest, its rescan, loop lag and memory. */
async function keywordFigures(dataDir: string, corpus: CorpusInfo, rss: RssSampler, indexer: IndexerOptions): Promise<string> {
  const sift = createSift({ dataDir, embedding: { provider: 'none' }, indexer });
  const kbId = await newKb(sift, 'bench', corpus.dir);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  rss.reset();
  lag.enable();
  const run = await timedIngest(sift, kbId);
  lag.disable();
  const peak = rss.peak();
  const s = run.status;
  console.log(`\n1. keyword-only ingest (${fmt(corpus.files, 0)} files, ${mb(corpus.bytes)}, ${corpus.folders} folders)`);
  figure('ingest time', run.ms / 1000, 's', { atMost: 15 }, 2);
  note('  scan / prepare+write', `${fmt((run.stateAt.indexing ?? 0) / 1000, 2)} s / ${fmt((run.ms - (run.stateAt.indexing ?? 0)) / 1000, 2)} s`);
  figure('files/s', corpus.files / (run.ms / 1000), 'files/s', undefined, 0);
  figure('MB/s', corpus.bytes / 1e6 / (run.ms / 1000), 'MB/s');
  note('pages / chunks', `${fmt(s.pages, 0)} / ${fmt(s.chunks, 0)}`);
  printRunProblems(s);
  const ingestCpu = run.cpuEnd - run.cpuStart;
  note('  CPU, all threads', `${fmt(ingestCpu, 2)} s (${fmt(ingestCpu / (run.ms / 1000), 2)} cores busy on average)`);
  const bare = bareFtsSeconds(corpus.dir);
  figure('bare FTS5 insert of the same files (read + unicode61, one transaction)', bare.wall, 's', undefined, 2);
  note('  its CPU', `${fmt(bare.cpu, 2)} s`);
  figure('ingest / bare FTS5', run.ms / 1000 / bare.wall, '×', { atMost: 2.5 }, 2);
  // Wall time on a shared 2-core machine varies by ±25 % run to run; CPU time much less.
  note('  the same in CPU time', `${fmt(ingestCpu / bare.cpu, 2)} ×`);

  console.log('\n4. main-thread event-loop lag during the keyword-only ingest');
  figure('lag p99', lag.percentile(99) / 1e6, 'ms', { atMost: 50 });
  figure('lag max', lag.max / 1e6, 'ms');
  figure('lag mean', lag.mean / 1e6, 'ms');

  rss.reset();
  const rescan = await timedIngest(sift, kbId);
  console.log('\n2. no-change rescan (keyword-only)');
  figure('rescan time', rescan.ms / 1000, 's', { atMost: 1 }, 3);
  figure('chunks embedded by it', rescan.status.chunksEmbeddedThisRun, 'chunks', { atMost: 0 }, 0);
  note('files re-indexed by it', String(rescan.status.filesIndexed));

  console.log('\n5. memory and size (keyword-only)');
  figure('peak RSS during ingest', peak / 1e6, 'MB', undefined, 0);
  figure('database size (+ WAL) after ingest', kbFileSize(dataDir, kbId) / 1e6, 'MB', undefined, 1);
  await sift.close();
  figure('database size after close', kbFileSize(dataDir, kbId) / 1e6, 'MB', undefined, 1);
  return kbId;
}

/**
 * The floor an ingest is held to: every file of `dir` read and inserted whole into a stock FTS5 unicode61
 * table (no parsing, chunking, Chinese words or identifiers), in one transaction on a file in tmp, seconds.
 */
function bareFtsSeconds(dir: string): { wall: number; cpu: number } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-bare-fts-'));
  const db = new Database(path.join(work, 'bare.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE VIRTUAL TABLE bare USING fts5(path, body)`);
    const insert = db.prepare(`INSERT INTO bare (path, body) VALUES (?, ?)`);
    const t0 = performance.now();
    const cpu0 = cpuSeconds();
    const files = (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile());
    db.transaction(() => {
      for (const e of files) {
        const file = path.join(e.parentPath, e.name);
        insert.run(file, fs.readFileSync(file, 'utf8'));
      }
    })();
    return { wall: since(t0) / 1000, cpu: cpuSeconds() - cpu0 };
  } finally {
    db.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The chunk texts of a knowledge base, in the order the indexer embeds them (page by page). */
function chunkTexts(dataDir: string, kbId: string): string[] {
  const db = new Database(dataPaths(dataDir).kbDb(kbId), { readonly: true });
  try {
    const rows = db.prepare(`SELECT p.text, c.start, c.end FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY c.page_id, c.idx`).raw().iterate();
    const out: string[] = [];
    for (const [text, start, end] of rows as Iterable<[string, number, number]>) out.push(text.slice(start, end));
    return out;
  } finally {
    db.close();
  }
}

/**
 * Wall and CPU seconds the embedder takes for `texts` on its own, batches of 32 queued 64 at a
 * time so its worker never waits (model load and a warm-up excluded).
 */
async function rawEmbedSeconds(modelsDir: string, texts: string[]): Promise<{ wall: number; cpu: number }> {
  const embedder = await createTransformersEmbedder({ modelId: TEST_MODEL_ID, modelsDir, allowDownload: false, batchSize: EMBED_BATCH });
  try {
    await embedder.embedPassages(texts.slice(0, EMBED_BATCH * 4)); // warm-up
    const t0 = performance.now();
    const c0 = cpuSeconds();
    const step = EMBED_BATCH * 64;
    for (let i = 0; i < texts.length; i += step) await embedder.embedPassages(texts.slice(i, i + step));
    return { wall: since(t0) / 1000, cpu: cpuSeconds() - c0 };
  } finally {
    await embedder.close();
  }
}

/** What the embedding run and the model alone measured. */
interface EmbeddingRun {
  run: TimedRun;
  rescan: TimedRun;
  lag: ReturnType<typeof monitorEventLoopDelay>;
  peakRss: number;
  texts: number;
  raw: { wall: number; cpu: number };
  dbBytes: number;
}

/** Embed a keyword-only knowledge base with the test model (the run only embeds), rescan, then time the model alone. */
async function measureEmbedding(dataDir: string, kbId: string, rss: RssSampler, indexer: IndexerOptions): Promise<EmbeddingRun> {
  const modelsDir = path.join(dataDir, 'bench-models');
  await writeTestModel(modelsDir, { dimension: MODEL_DIMENSION });
  const config: SiftConfig = { dataDir, indexer, embedding: { provider: 'transformers', modelId: TEST_MODEL_ID, localModelDir: modelsDir, allowDownload: false } };
  const sift = createSift(config);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  rss.reset();
  lag.enable();
  const run = await timedIngest(sift, kbId);
  lag.disable();
  const peakRss = rss.peak();
  const rescan = await timedIngest(sift, kbId);
  await sift.close();
  // The model alone runs after the pipeline, so the pipeline's peak RSS is its own.
  const texts = chunkTexts(dataDir, kbId);
  const raw = await rawEmbedSeconds(modelsDir, texts);
  return { run, rescan, lag, peakRss, texts: texts.length, raw, dbBytes: kbFileSize(dataDir, kbId) };
}

/** Figure 3 (and the rescan with a model loaded). */
function printEmbedding(e: EmbeddingRun, files: number, subset: boolean): void {
  const { run, raw } = e;
  const embedMs = run.ms - (run.stateAt.embedding ?? run.ms);
  const embedded = run.status.chunksEmbeddedThisRun;
  const pipelineRate = embedded / (embedMs / 1000);
  const rawRate = e.texts / raw.wall;
  const pipelineCpu = (run.cpuEnd - (run.cpuAt.embedding ?? run.cpuEnd)) / embedded;
  const rawCpu = raw.cpu / e.texts;
  console.log(`\n3. embedding pipeline vs the model alone (test model, ${MODEL_DIMENSION} dims, batch ${EMBED_BATCH}; ${fmt(files, 0)} files${subset ? ', a SUBSET of the corpus' : ''})`);
  note('chunks embedded by the run', `${fmt(embedded, 0)} of ${fmt(e.texts, 0)}`);
  note('run: model load + rescan / embedding phase', `${fmt((run.stateAt.embedding ?? 0) / 1000, 2)} s / ${fmt(embedMs / 1000, 2)} s`);
  figure('pipeline throughput', pipelineRate, 'chunks/s', undefined, 0);
  figure('raw embedPassages throughput', rawRate, 'chunks/s', undefined, 0);
  figure('pipeline overhead (pipeline/raw − 1)', (rawRate / pipelineRate - 1) * 100, '%', { atMost: 10 });
  // Wall time swings with other processes on a shared 2-core machine; CPU time per chunk much less.
  figure('  same in CPU time per chunk (all threads)', (pipelineCpu / rawCpu - 1) * 100, '%', { atMost: 10 });
  note('  CPU ms per chunk: pipeline / raw', `${fmt(pipelineCpu * 1000, 2)} / ${fmt(rawCpu * 1000, 2)}`);
  figure('lag p99 during embedding', e.lag.percentile(99) / 1e6, 'ms', { atMost: 50 });
  figure('lag max during embedding', e.lag.max / 1e6, 'ms');
  figure('peak RSS during embedding', e.peakRss / 1e6, 'MB', undefined, 0);
  printRunProblems(run.status);
  console.log('\n2b. no-change rescan with the model loaded');
  figure('rescan time', e.rescan.ms / 1000, 's', { atMost: 1 }, 3);
  figure('chunks embedded by it', e.rescan.status.chunksEmbeddedThisRun, 'chunks', { atMost: 0 }, 0);
  figure('database size with vectors (after close)', e.dbBytes / 1e6, 'MB', undefined, 1);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  console.log(`bench:ingest — ${new Date().toISOString()}\n  ${machineLine()}`);
  const corpus = ensureCorpus(args.files);
  note('corpus', `${corpus.dir} (${corpus.generated ? `written in ${fmt(corpus.seconds, 1)} s` : 'cached'}; ${corpus.folders} of ${FOLDER_COUNT} folders)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-bench-ingest-'));
  const rss = new RssSampler(100);
  rss.start();
  try {
    const indexer: IndexerOptions = args.progressMs === null ? {} : { progressIntervalMs: args.progressMs };
    if (args.progressMs !== null) note('indexer option (experiment)', `progressIntervalMs ${args.progressMs}`);
    await keywordFigures(path.join(work, 'data'), corpus, rss, indexer);
    if (args.embed) {
      const embedFiles = args.embedFiles ? Math.min(args.embedFiles, args.files) : args.files;
      const { dataDir, kbId } = await keywordOnlyKb(work, embedFiles, embedFiles < args.files);
      printEmbedding(await measureEmbedding(dataDir, kbId, rss, indexer), embedFiles, embedFiles < args.files);
    }
    if (args.phases) await timePhases(corpus, path.join(work, 'phases'));
    console.log('');
    figure('peak RSS of the whole benchmark', rss.overallPeak() / 1e6, 'MB', undefined, 0);
    console.log(`  ${machineLine()}`);
  } finally {
    rss.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The keyword-only knowledge base the embedding figures start from: the one figure 1 built, or
 * for a subset a new one over the first `files` notes (same generator, same seed).
 */
async function keywordOnlyKb(work: string, files: number, subset: boolean): Promise<{ dataDir: string; kbId: string }> {
  const dataDir = path.join(work, subset ? 'data-subset' : 'data');
  if (!subset) return { dataDir, kbId: only(fs.readdirSync(dataPaths(dataDir).kbDir).filter((f) => f.endsWith('.sqlite'))).replace(/\.sqlite$/, '') };
  const sift = createSift({ dataDir, embedding: { provider: 'none' } });
  const kbId = await newKb(sift, 'bench-subset', ensureCorpus(files).dir);
  await sift.ingest(kbId);
  await sift.close();
  return { dataDir, kbId };
}

function only<T>(items: T[]): T {
  if (items.length !== 1) throw new Error(`bench:ingest: expected one knowledge-base file, found ${items.length}`);
  return items[0]!;
}

await main();
