/**
 * One indexing run of a knowledge base: scan its folders, drop what vanished, prepare what changed
 * (in the worker), write each file in its own transaction, then embed the chunks still without
 * vectors. Unchanged files cost a stat: size + mtime first, sha256 only when those moved.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Folder } from '../../../shared/models';
import type { Embedder } from '../embed/embedder';
import { documentAt, documentsOf, removeDocument, storedFolders, touchDocument, writePage, writeProblem, type StoredDocument } from './page-store';
import { pagePathOf, type FileJob, type FileOutcome } from './prepare';
import { scanFolder } from './scan';
import type { RunCounters } from './status';
import { chunksToEmbed, setKeywordOnly, useModel, writeVectors } from './vectors';

/** Tunables of a run. */
export interface RunOptions {
  /** Files over this size are skipped as too large. Default 50 MB. */
  maxFileBytes: number;
  /** Files being prepared at once (keeps the worker busy while the main thread writes). Default 8 (1–64). */
  concurrency: number;
  /** Chunks per embedding call. Default 32 (1–256). */
  embedBatch: number;
}

/** What a run needs from its surroundings. */
export interface RunDeps {
  db: Database.Database;
  folders: Folder[];
  prepare(job: FileJob): Promise<FileOutcome>;
  /** The embedder, or the reason none can be had. */
  embedder(): Promise<Embedder | string>;
  counters: RunCounters;
  /** Report progress (the caller throttles). */
  progress(force?: boolean): void;
  signal: AbortSignal;
  options: RunOptions;
}

/** Index every folder of the knowledge base, then embed. */
export async function runFull(deps: RunDeps): Promise<void> {
  const { db, counters: c } = deps;
  c.state = 'scanning';
  deps.progress(true);
  const current = new Set(deps.folders.map((f) => f.path));
  for (const folder of storedFolders(db)) {
    if (!current.has(folder)) for (const doc of documentsOf(db, folder).values()) remove(db, doc.id, c);
  }
  const jobs: FileJob[] = [];
  for (const folder of deps.folders) {
    let scanned: Awaited<ReturnType<typeof scanFolder>>;
    try {
      scanned = await scanFolder(folder.path, { excludeGlobs: folder.excludeGlobs, maxFileBytes: deps.options.maxFileBytes });
    } catch (err) {
      // A folder gone or unreadable (unplugged disk, removed while watching): keep its pages, say so.
      c.error = [c.error, `folder ${folder.path}: ${(err as Error).message}`].filter(Boolean).join('; ');
      continue;
    }
    const { files, skipped } = scanned;
    const stored = documentsOf(db, folder.path);
    const seen = new Set<string>();
    for (const s of skipped) {
      seen.add(s.relPath);
      writeProblem(db, { folder: folder.path, relPath: s.relPath, size: 0, mtimeMs: 0, sha256: null, status: 'skipped', reason: s.reason });
      c.filesSkipped++;
      c.filesDone++;
    }
    for (const file of files) {
      seen.add(file.relPath);
      const known = stored.get(file.relPath);
      if (known && known.size === file.size && known.mtimeMs === Math.trunc(file.mtimeMs)) countUnchanged(c, known);
      else jobs.push(jobFor(folder, file.relPath, deps.options.maxFileBytes, known));
    }
    for (const [relPath, doc] of stored) if (!seen.has(relPath)) remove(db, doc.id, c);
    c.filesTotal += files.length + skipped.length;
  }
  await prepareAll(deps, jobs);
  await embedPending(deps);
}

/** Index just these files of one folder (from the watcher), then embed. */
export async function runFiles(deps: RunDeps, folder: Folder, relPaths: string[]): Promise<void> {
  // The whole folder gone (unmounted, removed while watched): keep its pages, as a full run does.
  if (!fs.existsSync(folder.path)) {
    deps.counters.error = `folder ${folder.path}: the folder ${folder.path} does not exist`;
    return;
  }
  deps.counters.filesTotal += relPaths.length;
  await prepareAll(deps, relPaths.map((rel) => jobFor(folder, rel, deps.options.maxFileBytes, documentAt(deps.db, folder.path, rel))));
  await embedPending(deps);
}

function jobFor(folder: Folder, relPath: string, maxFileBytes: number, known: StoredDocument | undefined): FileJob {
  return {
    folder: folder.path,
    relPath,
    absPath: path.join(folder.path, relPath),
    pagePath: pagePathOf(folder.pagePrefix, relPath),
    maxFileBytes,
    knownSha256: known?.sha256 ?? null,
  };
}

function remove(db: Database.Database, documentId: number, c: RunCounters): void {
  removeDocument(db, documentId);
  c.filesRemoved++;
}

function countUnchanged(c: RunCounters, known: StoredDocument): void {
  c.filesDone++;
  if (known.status === 'failed') c.filesFailed++;
  if (known.status === 'skipped') c.filesSkipped++;
}

/** Prepare jobs in the worker, `concurrency` at a time, writing each outcome as it arrives. */
async function prepareAll(deps: RunDeps, jobs: FileJob[]): Promise<void> {
  const { db, counters: c } = deps;
  c.state = 'indexing';
  deps.progress(true);
  let next = 0;
  // A store failure (disk full, a broken file) ends the run: the other lanes stop at their next file
  // instead of writing on after the run has been reported as failed.
  let failure: unknown = null;
  const lane = async (): Promise<void> => {
    while (next < jobs.length && !deps.signal.aborted && failure === null) {
      const job = jobs[next++]!;
      c.currentFile = job.pagePath;
      try {
        const outcome = await deps.prepare(job);
        if (deps.signal.aborted || failure !== null) return;
        applyOrFail(db, job, outcome, c);
      } catch (err) {
        failure ??= err;
        return;
      }
      c.filesDone++;
      deps.progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.options.concurrency, jobs.length) }, lane));
  if (failure !== null) throw failure;
  c.currentFile = null;
}

/**
 * Write one outcome. A page the store refuses by a constraint (its `wiki/` address already taken by
 * a file of another folder) fails that file alone instead of ending the run; it is recorded without
 * a fingerprint, so every run retries it and it is indexed once the clash is gone.
 */
function applyOrFail(db: Database.Database, job: FileJob, outcome: FileOutcome, c: RunCounters): void {
  try {
    apply(db, job, outcome, c);
  } catch (err) {
    if (outcome.kind !== 'page' || !String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw err;
    const taken = /UNIQUE constraint failed: pages\.path/.test((err as Error).message);
    const reason = taken
      ? `its page address ${job.pagePath} is already used by another file; rename one of them`
      : `could not be stored: ${(err as Error).message}`;
    writeProblem(db, { folder: job.folder, relPath: job.relPath, size: 0, mtimeMs: 0, sha256: null, status: 'failed', reason });
    c.filesFailed++;
  }
}

function apply(db: Database.Database, job: FileJob, outcome: FileOutcome, c: RunCounters): void {
  switch (outcome.kind) {
    case 'page':
      writePage(db, outcome.page);
      c.filesIndexed++;
      return;
    case 'problem':
      writeProblem(db, outcome.problem);
      if (outcome.problem.status === 'failed') c.filesFailed++;
      else c.filesSkipped++;
      return;
    case 'unchanged': {
      const known = documentAt(db, job.folder, job.relPath);
      if (!known) return;
      touchDocument(db, known.id, outcome.size, outcome.mtimeMs);
      // Same bytes, same verdict: a file that failed or was skipped still counts as such in this run.
      if (known.status === 'failed') c.filesFailed++;
      if (known.status === 'skipped') c.filesSkipped++;
      return;
    }
    case 'gone': {
      const known = documentAt(db, job.folder, job.relPath);
      if (known) remove(db, known.id, c);
      return;
    }
  }
}

/** Embed every chunk without a vector, two batches in flight so the model never waits on SQLite. */
async function embedPending(deps: RunDeps): Promise<void> {
  const { db, counters: c } = deps;
  const pendingBefore = db.prepare(`SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1`).get();
  const embedder = await deps.embedder();
  if (typeof embedder === 'string') {
    setKeywordOnly(db, embedder);
    return;
  }
  setKeywordOnly(db, null);
  useModel(db, { id: embedder.id, dimension: embedder.dimension });
  if (!pendingBefore && !db.prepare(`SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1`).get()) return;
  c.state = 'embedding';
  deps.progress(true);
  const size = deps.options.embedBatch;
  while (!deps.signal.aborted) {
    const todo = chunksToEmbed(db, size * 8);
    if (todo.length === 0) return;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < todo.length && !deps.signal.aborted; i += size) {
      const batch = todo.slice(i, i + size);
      const job = embedder.embedPassages(batch.map((t) => t.text)).then((vectors) => {
        if (deps.signal.aborted) return;
        c.chunksEmbeddedThisRun += writeVectors(db, batch.map((t, j) => ({ chunkId: t.chunkId, hash: t.hash, vector: vectors[j]! })));
        deps.progress();
      });
      job.catch(() => undefined); // awaited below; this only keeps Node from calling it unhandled meanwhile
      inFlight.push(job);
      if (inFlight.length >= 2) await inFlight.shift();
    }
    await Promise.all(inFlight);
  }
}
