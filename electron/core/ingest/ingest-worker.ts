/**
 * An ingest worker thread: indexes batches of files (read, parse, chunk, tokenize, write) off the
 * main thread, each worker with its own connection to the knowledge base's file. The facade's worker
 * entry (ingest-worker-main.ts) starts it with the page features every page is written to.
 */
import type Database from 'better-sqlite3';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { serveRequests } from '../workers/rpc';
import { indexBatch, type FileResult } from './batch';
import type { PageFeature } from './page-features';
import type { FileJob } from './prepare';
import type { OcrProgress } from '../ocr/reader';

/** A request to an ingest worker: index a batch into a knowledge-base file, or let go of a file. */
export type IngestRequest =
  | { kind: 'batch'; dbFile: string; jobs: FileJob[]; lock: SharedArrayBuffer; cancel?: SharedArrayBuffer }
  | { kind: 'release'; dbFile: string };

/** Notes sent while a batch is indexed: the page address of each file as its reading starts, then that the
 *  batch is being written (the pool's watchdog never stops a worker that writes). */
export type IngestNote = { reading: string } | { writing: true } | { ocr: OcrProgress & { file: string } };

/** Serve ingest requests in this worker thread, writing every page to `features`. */
export function serveIngest(features: readonly PageFeature[]): void {
  const open = new Map<string, Database.Database>();
  const connection = (dbFile: string): Database.Database => {
    let db = open.get(dbFile);
    if (!db) {
      db = openDatabase(dbFile, kbMigrations, `the index ${dbFile}`, { vectors: true });
      open.set(dbFile, db);
    }
    return db;
  };
  serveRequests<IngestRequest, FileResult[], IngestNote>(async (request, note) => {
    if (request.kind === 'release') {
      open.get(request.dbFile)?.close();
      open.delete(request.dbFile);
      return [];
    }
    const onFile = (reading: string) => note({ reading });
    const onWrite = () => note({ writing: true });
    const onOcrPage = (file: string, progress: OcrProgress) => note({ ocr: { file, ...progress } });
    const cancel = request.cancel ?? null;
    return indexBatch(connection(request.dbFile), request.jobs, { lock: request.lock, onFile, onWrite, onOcrPage, features, cancel });
  });
}
