/**
 * Where keyword-only ingest time goes, measured outside the engine with its own exported parts, all
 * on this thread: the folder scan; preparing a file (read, sha256, parse, sections + chunks,
 * tokenize); copying a prepared page (structuredClone — for scale only: the engine's workers write
 * what they prepare and send back one word per file); and writing the prepared files in batches of
 * 128, one transaction each, with the engine's `writeBatch`.
 * Run by `tsx bench/ingest.ts --phases`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scanFolder } from '../electron/core/ingest/scan';
import { parseFile } from '../electron/core/ingest/parse';
import { writeBatch } from '../electron/core/ingest/batch';
import { pagePathOf, prepareFile, type FileJob, type FileOutcome } from '../electron/core/ingest/prepare';
import { openDatabase } from '../electron/core/store/open';
import { kbMigrations } from '../electron/core/store/migrations/kb';
import { buildSections, chunkSections } from '../electron/core/text/chunk';
import { toIndexText } from '../electron/core/text/tokenize';
import type { CorpusInfo } from './corpus';
import { figure, fmt, note, percentile, since } from './measure';

/** Per-part milliseconds summed over every file. */
interface PartTimes {
  read: number;
  sha256: number;
  parse: number;
  chunk: number;
  tokenize: number;
  prepareWhole: number;
  clone: number;
  write: number[];
}

/** Time each part of preparing one file (the same steps prepareFile takes), adding to `t`. */
async function timeParts(absPath: string, relPath: string, t: PartTimes): Promise<void> {
  let t0 = performance.now();
  const bytes = await fs.promises.readFile(absPath);
  t.read += since(t0);
  t0 = performance.now();
  createHash('sha256').update(bytes).digest('hex');
  t.sha256 += since(t0);
  t0 = performance.now();
  const doc = await parseFile(path.basename(relPath), bytes);
  t.parse += since(t0);
  t0 = performance.now();
  const chunks = chunkSections(doc.text, buildSections(doc.text, doc.headings));
  t.chunk += since(t0);
  t0 = performance.now();
  for (const c of chunks) toIndexText(c.text);
  toIndexText(doc.title ?? relPath);
  toIndexText(relPath);
  t.tokenize += since(t0);
}

/** Print where the time of a keyword-only ingest of `corpus` goes; `work` is a scratch folder. */
export async function timePhases(corpus: CorpusInfo, work: string): Promise<void> {
  console.log('\n6. phases of the keyword-only ingest, timed one by one on this thread (--phases)');
  let t0 = performance.now();
  const { files } = await scanFolder(corpus.dir);
  figure('scan (scanFolder)', since(t0) / 1000, 's', undefined, 2);
  const db = openDatabase(path.join(work, 'kb.sqlite'), kbMigrations, 'the phases benchmark index', { vectors: true });
  const t: PartTimes = { read: 0, sha256: 0, parse: 0, chunk: 0, tokenize: 0, prepareWhole: 0, clone: 0, write: [] };
  const batch: { jobs: FileJob[]; outcomes: FileOutcome[] } = { jobs: [], outcomes: [] };
  const write = () => {
    t0 = performance.now();
    writeBatch(db, batch.jobs.splice(0), batch.outcomes.splice(0));
    t.write.push(since(t0));
  };
  try {
    for (const file of files) {
      await timeParts(file.absPath, file.relPath, t);
      const job: FileJob = {
        folder: corpus.dir, relPath: file.relPath, absPath: file.absPath, pagePath: pagePathOf('', file.relPath),
        maxFileBytes: 50 * 1024 * 1024, knownSha256: null, size: 0,
      };
      t0 = performance.now();
      const outcome = await prepareFile(job);
      t.prepareWhole += since(t0);
      t0 = performance.now();
      structuredClone(outcome);
      t.clone += since(t0);
      batch.jobs.push(job);
      batch.outcomes.push(outcome);
      if (batch.jobs.length === 128) write();
    }
    if (batch.jobs.length > 0) write();
  } finally {
    db.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  printParts(t);
}

function printParts(t: PartTimes): void {
  const s = (ms: number) => ms / 1000;
  console.log('  preparing (the engine runs it in its ingest workers, one per core):');
  // Sequential reads: I/O latency, partly hidden in the engine, where another worker computes meanwhile.
  figure('  read files (latency, one at a time)', s(t.read), 's', undefined, 2);
  figure('  sha256', s(t.sha256), 's', undefined, 2);
  figure('  parse (decode + Markdown)', s(t.parse), 's', undefined, 2);
  figure('  sections + chunks', s(t.chunk), 's', undefined, 2);
  figure('  tokenize (toIndexText)', s(t.tokenize), 's', undefined, 2);
  figure('  prepareFile as a whole', s(t.prepareWhole), 's', undefined, 2);
  console.log('  writing (in the engine: the same workers, taking turns):');
  figure('  copy of the prepared pages (structuredClone)', s(t.clone), 's', undefined, 2);
  const write = t.write.reduce((a, b) => a + b, 0);
  figure('  writeBatch, all files', s(write), 's', undefined, 2);
  note('  writeBatch per batch of 128 p50 / p99 / max', `${fmt(percentile(t.write, 50), 1)} / ${fmt(percentile(t.write, 99), 1)} / ${fmt(Math.max(...t.write), 1)} ms`);
}
