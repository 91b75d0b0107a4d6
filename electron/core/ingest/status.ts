/** Building the IngestStatus snapshot of a knowledge base from its store and a run's counters. */
import type Database from 'better-sqlite3';
import type { FileProblem, IngestStatus } from '../../../shared/models';
import { NOT_CONFIGURED } from '../embed/embedding';
import { DIGEST_FOLDER } from '../store/page-model';
import { chunkCounts, keywordOnlyReason, recordedModel } from '../store/vectors';
import { saidMapOf } from '../../../shared/said';

/** The counters a run keeps while it works. */
export interface RunCounters {
  state: IngestStatus['state'];
  filesTotal: number;
  filesDone: number;
  filesFailed: number;
  filesSkipped: number;
  filesIndexed: number;
  filesRemoved: number;
  chunksEmbeddedThisRun: number;
  currentFile: string | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  startedMs: number;
  /** OCR of this run: the file and page it is on, pages read (and their seconds) and pages found in the cache. */
  ocr: { file: string; page: number; pages: number; pagesRead: number; seconds: number; pagesCached: number } | null;
}

/**
 * Count one page OCR read into the run's counters. The estimate of what is left (status `ocr.remainingSeconds`)
 * is the file's pages still to read × the seconds per page measured so far in this run.
 */
export function countOcrPage(c: RunCounters, file: string, p: { page: number; pages: number; seconds: number; cached: boolean }): void {
  const o = (c.ocr ??= { file, page: 0, pages: 0, pagesRead: 0, seconds: 0, pagesCached: 0 });
  Object.assign(o, { file, page: p.page, pages: p.pages });
  if (p.cached) o.pagesCached++;
  else {
    o.pagesRead++;
    o.seconds += p.seconds;
  }
}

/** The status's view of a run's OCR, or null when it read nothing by OCR. */
function ocrStatus(c: RunCounters): IngestStatus['ocr'] {
  if (!c.ocr) return null;
  const secondsPerPage = c.ocr.pagesRead ? c.ocr.seconds / c.ocr.pagesRead : null;
  const left = c.ocr.pages - c.ocr.page;
  return {
    file: c.ocr.file, page: c.ocr.page, pages: c.ocr.pages, pagesRead: c.ocr.pagesRead, pagesCached: c.ocr.pagesCached,
    secondsPerPage: secondsPerPage === null ? null : Math.round(secondsPerPage * 100) / 100,
    remainingSeconds: secondsPerPage === null ? null : Math.round(left * secondsPerPage),
  };
}

/** Counters of a knowledge base that has not been indexed in this session. */
export function idleCounters(): RunCounters {
  return {
    state: 'idle', filesTotal: 0, filesDone: 0, filesFailed: 0, filesSkipped: 0, filesIndexed: 0, filesRemoved: 0, chunksEmbeddedThisRun: 0,
    currentFile: null, error: null, startedAt: null, finishedAt: null, startedMs: 0, ocr: null,
  };
}

/** Files recorded as failed or skipped (at most 1,000, failed first), with their reasons. */
export function problemsOf(db: Database.Database): FileProblem[] {
  return db
    .prepare(`SELECT folder, rel_path AS relPath, status, reason FROM documents WHERE status != 'indexed' ORDER BY status, folder, rel_path LIMIT 1000`)
    .all() as FileProblem[];
}

/** The status of a run whose knowledge base is gone: its counters and an empty store (the file is not reopened). */
export function storelessSnapshot(kbId: string, c: RunCounters): IngestStatus {
  const elapsedMs = c.startedMs ? (c.finishedAt ? Date.parse(c.finishedAt) : Date.now()) - c.startedMs : 0;
  return {
    kbId, state: c.state, filesTotal: c.filesTotal, filesDone: c.filesDone, filesFailed: c.filesFailed,
    filesSkipped: c.filesSkipped, filesIndexed: c.filesIndexed, filesRemoved: c.filesRemoved, pages: 0, chunks: 0,
    chunksEmbedded: 0, chunksEmbeddedThisRun: c.chunksEmbeddedThisRun, currentFile: null, problems: [],
    keywordOnly: null, keywordOnlyCode: null, stored: { files: 0, failed: 0, skipped: 0 },
    embeddingModel: null, error: c.error, startedAt: c.startedAt, finishedAt: c.finishedAt, elapsedMs,
  };
}

/** Files recorded in the store (page digests are no files), and how many of them failed or were skipped. */
function storedCounts(db: Database.Database): IngestStatus['stored'] {
  const row = db
    .prepare(
      `SELECT count(*) AS files, coalesce(sum(status = 'failed'), 0) AS failed, coalesce(sum(status = 'skipped'), 0) AS skipped
       FROM documents WHERE folder != ?`,
    )
    .get(DIGEST_FOLDER) as IngestStatus['stored'];
  return row;
}

/** The status snapshot: counters of the run plus what the store says. */
export function snapshot(db: Database.Database, kbId: string, c: RunCounters): IngestStatus {
  const { chunks, embedded } = chunkCounts(db);
  const pages = db.prepare(`SELECT count(*) FROM pages`).pluck().get() as number;
  const model = recordedModel(db);
  const keywordOnly = keywordOnlyReason(db);
  const status: IngestStatus = {
    kbId,
    state: c.state,
    filesTotal: c.filesTotal,
    filesDone: c.filesDone,
    filesFailed: c.filesFailed,
    filesSkipped: c.filesSkipped,
    filesIndexed: c.filesIndexed,
    filesRemoved: c.filesRemoved,
    pages,
    chunks,
    chunksEmbedded: embedded,
    chunksEmbeddedThisRun: c.chunksEmbeddedThisRun,
    currentFile: c.currentFile,
    problems: problemsOf(db),
    keywordOnly,
    keywordOnlyCode: keywordOnly === null ? null : keywordOnly === NOT_CONFIGURED ? 'not_configured' : 'model_unavailable',
    stored: storedCounts(db),
    embeddingModel: model?.id ?? null,
    error: c.error,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    elapsedMs: c.startedMs ? (c.finishedAt ? Date.parse(c.finishedAt) : Date.now()) - c.startedMs : 0,
    ocr: ocrStatus(c),
  };
  return withSaid(status);
}

/**
 * The status with the codes of its core messages (shared/said.ts): the files' reasons are stored as their English
 * text, so they are recognised from the same templates that wrote them.
 */
function withSaid(status: IngestStatus): IngestStatus {
  const said = saidMapOf([...status.problems.map((p) => p.reason), status.error, status.keywordOnly]);
  return Object.keys(said).length > 0 ? { ...status, said } : status;
}
