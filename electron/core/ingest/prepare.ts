/**
 * Turning one file into a PreparedPage: read, fingerprint, parse, split into sections and chunks,
 * tokenize for the keyword index. No database access. Runs in an ingest worker thread, which has
 * no event loop to keep responsive, so files are read synchronously (cheaper than a thread-pool
 * round trip per file).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSections, chunkSections } from '../text/chunk';
import { toIndexText } from '../text/tokenize';
import { parseFile } from './parse';
import type { DocumentProblem, PreparedPage } from './page-store';
import { ParseError } from './types';

/** One file to prepare. */
export interface FileJob {
  folder: string;
  relPath: string;
  absPath: string;
  /** `wiki/…` address of the page. */
  pagePath: string;
  /** Files larger than this are refused as too large. */
  maxFileBytes: number;
  /** sha256 the store has for this file; when the bytes still hash to it, nothing is parsed. */
  knownSha256: string | null;
  /** Size seen by the scan (0 when unknown); only used to size batches. */
  size: number;
}

/** What preparing a file gives: a page, a problem to record, unchanged content, or a vanished file. */
export type FileOutcome =
  | { kind: 'page'; page: PreparedPage }
  | { kind: 'problem'; problem: DocumentProblem }
  | { kind: 'unchanged'; size: number; mtimeMs: number }
  | { kind: 'gone' };

/**
 * The version of what preparing a file produces (canonical text, title, sections, chunks). Bump it
 * when any of them changes, so knowledge bases indexed before are indexed again even though their
 * files have not changed. 2: headings joined to their text; titles from level-1 headings only.
 */
export const PAGE_FORMAT = 2;

const SKIP_REASONS = new Set(['binary', 'unsupported', 'too_large', 'empty']);

/** The page address of a file: `wiki/<prefix>/<relPath>` (no prefix segment when the prefix is empty). */
export function pagePathOf(prefix: string, relPath: string): string {
  return ['wiki', prefix, relPath].filter(Boolean).join('/');
}

/** A README or index file is named by its folder: `zod/README.md` is the zod page, not "README". */
const NAMED_BY_FOLDER = /^(?:readme|index)(?:\.[^.]*)?$/i;

/**
 * The title of a page whose file names none: the file name without its extension, or for a README
 * or index file its folder's name (the knowledge-base folder's own name at the top level).
 */
export function titleFromFileName(folder: string, relPath: string): string {
  const base = path.basename(relPath);
  if (NAMED_BY_FOLDER.test(base)) {
    const parent = path.basename(path.dirname(relPath));
    const named = parent && parent !== '.' ? parent : path.basename(folder);
    if (named) return named;
  }
  return base.replace(/\.[^.]+$/, '') || relPath;
}

/** Read and prepare one file. Never throws for a bad file: the problem is the outcome. */
export async function prepareFile(job: FileJob): Promise<FileOutcome> {
  let bytes: Buffer;
  let stat: { size: number; mtimeMs: number };
  try {
    const s = fs.statSync(job.absPath);
    stat = { size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
    if (s.size > job.maxFileBytes) return problem(job, stat, null, 'skipped', `too large (${mb(s.size)} > ${mb(job.maxFileBytes)} cap)`);
    bytes = fs.readFileSync(job.absPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    return problem(job, { size: 0, mtimeMs: 0 }, null, 'failed', `unreadable: ${code ?? (err as Error).message}`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 === job.knownSha256) return { kind: 'unchanged', ...stat };
  try {
    const doc = await parseFile(path.basename(job.relPath), bytes);
    const sections = buildSections(doc.text, doc.headings);
    // Each character of the page is indexed once: a chunk's keyword row holds the tokens of its
    // text after the overlap with the chunk before it (about a fifth less to tokenize and index);
    // a word in an overlap is found through the earlier chunk, which contains it too.
    let indexedTo = 0;
    const chunks = chunkSections(doc.text, sections).map((c) => {
      const tokens = toIndexText(doc.text.slice(Math.max(c.start, indexedTo), c.end));
      indexedTo = Math.max(indexedTo, c.end);
      return { index: c.index, sectionIndex: c.sectionIndex, start: c.start, end: c.end, hash: c.hash, tokens };
    });
    const title = doc.title?.trim() || titleFromFileName(job.folder, job.relPath);
    const page: PreparedPage = {
      folder: job.folder,
      relPath: job.relPath,
      ...stat,
      sha256,
      path: job.pagePath,
      title,
      doc,
      titleTokens: toIndexText(title),
      pathTokens: toIndexText(job.pagePath.slice('wiki/'.length)),
      sections: sections.map((s) => ({ index: s.index, start: s.start, end: s.end, headingPath: s.headingPath })),
      chunks,
    };
    return { kind: 'page', page };
  } catch (err) {
    if (err instanceof ParseError) return problem(job, stat, sha256, SKIP_REASONS.has(err.reason) ? 'skipped' : 'failed', err.message);
    return problem(job, stat, sha256, 'failed', `could not be read: ${(err as Error).message}`);
  }
}

function problem(
  job: FileJob,
  stat: { size: number; mtimeMs: number },
  sha256: string | null,
  status: 'failed' | 'skipped',
  reason: string,
): FileOutcome {
  return { kind: 'problem', problem: { folder: job.folder, relPath: job.relPath, ...stat, sha256, status, reason } };
}

function mb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(bytes >= 10 << 20 ? 0 : 1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
