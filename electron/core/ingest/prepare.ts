/**
 * Turning one file into a PreparedPage: read, fingerprint, parse, split into sections and chunks,
 * tokenize for the keyword index. No database access. Runs in an ingest worker thread, which has
 * no event loop to keep responsive, so files are read synchronously (cheaper than a thread-pool
 * round trip per file).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSections, chunkSections, headingPathsAt, type SectionSpan } from '../text/chunk';
import { toIndexText } from '../text/tokenize';
import { parseFile } from './parse';
import type { PageReader } from '../ocr/reader';
import { looksLikeText } from './parse/decode';
import { kindOf } from './parse/kinds';
import { say } from '../../../shared/said';
import { sizeCapOf } from './rules';
import type { DocumentProblem, PreparedPage } from './page-store';
import { ParseError, type ParsedDocument } from './types';
import { isWithin, nonRegularKind, readRegularFile, unsafeLinkTarget } from '../base/safe-read';

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
  /** Read the file even when its links lead outside `folder` (the folder's option). Default false. */
  followExternalLinks?: boolean;
  /** Longest time reading and parsing the file may take, in ms; with OCR, per page read. Default 60,000 (1,000–600,000). */
  timeLimitMs?: number;
  /** Read images and PDF pages without a text layer with OCR (the setting). Default true. */
  ocr?: boolean;
}

/** What preparing needs from the worker it runs in: an OCR page reader for a file's bytes (cache, progress). */
export interface PrepareContext {
  /** The reader for the file with content hash `sha256`, and a hook the reader calls per page; null: no OCR here. */
  ocrReader?: (job: FileJob, sha256: string, onPage: () => void) => PageReader | null;
}

/** Default of {@link FileJob.timeLimitMs}: a 50 MB PDF parses in well under this. */
export const FILE_TIME_LIMIT_MS = 60_000;

/** What preparing a file gives: a page, a problem to record, unchanged content, or a vanished file. */
export type FileOutcome =
  | { kind: 'page'; page: PreparedPage }
  | { kind: 'problem'; problem: DocumentProblem }
  | { kind: 'unchanged'; size: number; mtimeMs: number }
  | { kind: 'gone' }
  /** OCR stopped by a cancelled run: nothing is written, so the next run reads the file again. */
  | { kind: 'cancelled' };

/**
 * The version of what preparing a file produces (canonical text, title, sections, chunks). Bump it
 * when any of them changes, so knowledge bases indexed before are indexed again even though their
 * files have not changed. 2: headings joined to their text; titles from level-1 headings only.
 * 3: every section gets its row of the section keyword index (kb migration 006).
 * 4: heading paths without linked images (badges).
 * 5: no title from a level-1 heading after a lower one; licence/copyright/changelog files titled by folder;
 *    no chunk without words, none creeping towards a long whitespace run.
 * 6: csv and tsv files read as spreadsheets (issue #26), not as plain text.
 * 7: images and PDF pages without a text layer read by OCR (issue #26), with the lines' boxes (`pages.ocr`).
 * 8: (issue #25 item 8) .rst section titles as headings and title; scoped npm packages titled with their scope
 *    (`@types/node`); HTML permalink anchors (`#`, `¶`, headerlink…) and copy buttons/widgets add no text.
 * 9: identifiers also give the joined names inside them whole (`worker_threads` of `node:worker_threads` and of
 *    the path `api/worker_threads.md`, `e_conn_reset` of `errors.E_CONN_RESET`; text/tokenize.ts addSegments).
 * 10: British spellings indexed as American ones (`tumour` as `tumor`, text/spelling.ts).
 * 11: HTML manuals without the bars that move between their pages (Texinfo's "Next: …, Previous: …, Up: …",
 *    DocBook's Prev/Up/Home/Next tables) and without elements of role="navigation" (parse/html.ts); names written
 *    with symbols indexed as tokens of their own (`C++` → `cplusplus`, `C#` → `csharp`; text/tokenize.ts).
 * 12: plain text (.txt, .org, files without an extension) cut at its own section titles: underlined, after a
 *    rule, numbered, in capitals, marked ¶, or Markdown's `#` (parse/plain-headings.ts), not only in windows of
 *    ~4,000 characters, and titled by an underlined (or `#`, `¶`, `#+TITLE:`) title that opens it; ctags
 *    indexes (`tags`) listed as not read (parse/index.ts).
 * 13: Perl's POD (`.pod` files, and the POD of modules and scripts) read by its commands: `=head1`–`=head4` and the
 *    `=item`s that name something are headings, NAME titles the page, code comments are no titles (parse/pod.ts).
 * 14: code pages carry an outline of their classes and functions (parse/code-outline.ts), which names where a
 *    passage is; they are still cut into the same windows.
 * 15: a POD bullet names what follows it on its line when a paragraph of its own explains it
 *    (`=item * $Data::Dumper::Sortkeys`): each option of such a list is a section.
 * 16: code made by a program (20,000 characters or more in lines averaging over 200: minified bundles, the search
 *    indexes of mdBook and Sphinx) listed as not read (parse/index.ts machineMadeAverage).
 * 17: plain text's titles set in the middle of the line under a rule (Vim's tutors: "Lesson 2.7: UNDO" after
 *    `~~~…`) cut it into sections; a title after a rule never ends in a CJK full stop or comma (plain-headings.ts).
 * 18: PDFs cut at the titles of their outline (bookmarks) where their pages hold them (parse/pdf-outline.ts), and
 *    without the lines they print on every page: running heads and page numbers (parse/pdf-running.ts); words
 *    broken at a line's end joined (parse/pdf-hyphens.ts).
 */
export const PAGE_FORMAT = 18;

/**
 * Raised when a parser can read files it failed on before (a fix in it or in a library it uses): a knowledge
 * base then reads its failed files again once, unchanged ones too. A file that fails again stays failed
 * until it changes, so a broken file costs one more try, not one on every run. What each value fixed:
 * 1: pdf.js 5.4.624 kept one page count per thread, the last opened document's, so a PDF read while a
 *    shorter one was open in the same ingest worker failed with "Invalid page request" (mozilla/pdf.js#20629).
 */
export const PARSER_FIXES = 1;

const SKIP_REASONS = new Set(['binary', 'unsupported', 'too_large', 'empty']);

/** Why a link out of its folder is not read (the scan says the same). */
const LINK_OUT = 'a link to outside the folder (links out are not followed for this folder)';

/** The page address of a file: `wiki/<prefix>/<relPath>` (no prefix segment when the prefix is empty). */
export function pagePathOf(prefix: string, relPath: string): string {
  return ['wiki', prefix, relPath].filter(Boolean).join('/');
}

/** A README or index file is named by its folder: `zod/README.md` is the zod page, not "README". */
const NAMED_BY_FOLDER = /^(?:readme|index)(?:\.[^.]*)?$/i;

/**
 * Files every project has one of, named by their folder too (`bash/copyright` → "bash copyright"):
 * ten pages all titled "copyright" or "LICENSE" tell a reader nothing in a result list.
 */
const SHARED_NAME = /^(?:copyright|copying|licen[cs]e|changelog|changes|history|news|notice|authors|contributors)(?:\.[^.]*)?$/i;

/**
 * The title of a page whose file names none: the file name without its extension; for a README
 * or index file its folder's name (the knowledge-base folder's own name at the top level; a scoped npm
 * package's with its scope, `@types/node`); for a licence, copyright or changelog file the folder's name
 * before the file's.
 */
export function titleFromFileName(folder: string, relPath: string): string {
  const base = path.basename(relPath);
  const stem = base.replace(/\.[^.]+$/, '') || relPath;
  const dir = path.dirname(relPath);
  // The folder that names the file, as a path: inside the knowledge-base folder, else the folder itself.
  const where = dir && dir !== '.' ? dir : folder;
  const named = withScope(path.basename(where), path.basename(path.dirname(where)));
  if (NAMED_BY_FOLDER.test(base) && named) return named;
  if (SHARED_NAME.test(base) && named) return `${named} ${stem}`;
  return stem;
}

/** A scoped npm package is named with its scope: `node_modules/@types/node/README.md` is `@types/node`
 *  (there are dozens of `node`, `react`… pages otherwise, one per scope). */
function withScope(name: string, parent: string): string {
  return name && /^@[\w.-]+$/.test(parent) ? `${parent}/${name}` : name;
}

/** Read and prepare one file. Never throws for a bad file: the problem is the outcome. */
export async function prepareFile(job: FileJob, context: PrepareContext = {}): Promise<FileOutcome> {
  const timeLimitMs = job.timeLimitMs ?? FILE_TIME_LIMIT_MS;
  const read = readJob(job, timeLimitMs);
  if (read.kind !== 'bytes') return read;
  const { bytes, stat } = read;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 === job.knownSha256) return { kind: 'unchanged', ...stat };
  const limit = timeLimit(timeLimitMs);
  try {
    const reader = job.ocr === false ? null : (context.ocrReader?.(job, sha256, limit.extend) ?? null);
    return { kind: 'page', page: await limit.race(pageOf(job, bytes, stat, sha256, reader)) };
  } catch (err) {
    if ((err as Error).name === 'OcrCancelled') return { kind: 'cancelled' };
    if (err instanceof ParseError) return problem(job, stat, sha256, SKIP_REASONS.has(err.reason) ? 'skipped' : 'failed', err.message);
    return problem(job, stat, sha256, 'failed', `could not be read: ${(err as Error).message}`);
  }
}

type Stat = { size: number; mtimeMs: number };
type Read = { kind: 'bytes'; bytes: Buffer; stat: Stat } | Exclude<FileOutcome, { kind: 'page' }>;

/** How much of a file whose name says nothing is read to decide whether it is text, before reading it whole. */
const SNIFF_BYTES = 8192;

/** The first bytes of a regular file (one read; the caller checked it is regular). */
function headOf(absPath: string): Buffer {
  const fd = fs.openSync(absPath, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    return head.subarray(0, fs.readSync(fd, head, 0, SNIFF_BYTES, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The file's bytes, read only when it is a regular file inside its folder (unless the folder
 * follows links out), within the size cap and the time limit; otherwise the problem to record.
 */
function readJob(job: FileJob, timeLimitMs: number): Read {
  const unknown = { size: 0, mtimeMs: 0 };
  try {
    const s = fs.statSync(job.absPath); // follows links: the kind and size of what would be read
    const stat = { size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
    const kind = nonRegularKind(s);
    if (kind) return problem(job, unknown, null, 'skipped', `not a regular file: ${kind}`);
    const real = fs.realpathSync.native(job.absPath);
    const folderReal = fs.realpathSync.native(job.folder);
    if (!isWithin(real, folderReal)) {
      const unsafe = unsafeLinkTarget(real, folderReal);
      if (unsafe) return problem(job, unknown, null, 'skipped', unsafe);
      if (!job.followExternalLinks) return problem(job, unknown, null, 'skipped', LINK_OUT);
    }
    const limit = sizeCapOf(job.relPath, job.maxFileBytes);
    const cap = `${mb(limit.bytes)} cap${limit.text ? ' for text files' : ''}`;
    if (s.size > limit.bytes) return problem(job, stat, null, 'skipped', `too large (${mb(s.size)} > ${cap})`);
    if (!kindOf(job.relPath) && s.size > SNIFF_BYTES && !looksLikeText(headOf(job.absPath))) {
      return problem(job, stat, null, 'skipped', say('file.notText', { name: path.basename(job.relPath) }).text);
    }
    const read = readRegularFile(job.absPath, limit.bytes, timeLimitMs);
    if (read.ok) return { kind: 'bytes', bytes: read.bytes, stat: { size: read.size, mtimeMs: read.mtimeMs } };
    const grew = `too large (grew past the ${cap} while read)`;
    if (read.why === 'too_large') return problem(job, stat, null, 'skipped', grew);
    return problem(job, unknown, null, read.why === 'timeout' ? 'failed' : 'skipped', read.detail);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    return problem(job, unknown, null, 'failed', `unreadable: ${code ?? (err as Error).message}`);
  }
}

/**
 * A parsed document's sections and chunks, with each chunk's keyword tokens. Each character of the page is indexed
 * once: a chunk's keyword row holds the tokens of its text after the overlap with the chunk before it (about a fifth
 * less to tokenize and index); a word in an overlap is found through the earlier chunk, which contains it too.
 */
export function sectionsAndChunks(doc: ParsedDocument): Pick<PreparedPage, 'sections' | 'chunks'> {
  const sections = doc.kind === 'code' ? codeSections(doc) : buildSections(doc.text, doc.headings);
  let indexedTo = 0;
  const chunks = chunkSections(doc.text, sections).map((c) => {
    const tokens = toIndexText(doc.text.slice(Math.max(c.start, indexedTo), c.end));
    indexedTo = Math.max(indexedTo, c.end);
    return { index: c.index, sectionIndex: c.sectionIndex, start: c.start, end: c.end, hash: c.hash, tokens };
  });
  const placed = sections.map((s) => ({ index: s.index, start: s.start, end: s.end, headingPath: s.headingPath }));
  return { sections: placed, chunks };
}

/**
 * A code page's sections: windows of its text, as before it had an outline, each under the definitions in force
 * where it starts. Its definitions (parse/code-outline.ts) say where a passage is; cut at them, one section per
 * function, short functions outranked the code a question was about (Python's stdlib, 20 questions: "ThreadPoolExecutor
 * shutdown wait", "RotatingFileHandler rollover" and lru_cache lost their answers while urljoin and quote found theirs).
 */
function codeSections(doc: ParsedDocument): SectionSpan[] {
  const windows = buildSections(doc.text, []);
  const paths = headingPathsAt(doc.headings, windows.map((s) => s.start));
  return windows.map((s, i) => ({ ...s, headingPath: paths[i]! }));
}

/** Parse the bytes and build the page: sections, chunks and the tokens of each. */
async function pageOf(job: FileJob, bytes: Buffer, stat: Stat, sha256: string, ocr: PageReader | null): Promise<PreparedPage> {
  const doc = await parseFile(path.basename(job.relPath), bytes, { ocr });
  const { sections, chunks } = sectionsAndChunks(doc);
  const title = doc.title?.trim() || titleFromFileName(job.folder, job.relPath);
  return {
    folder: job.folder,
    relPath: job.relPath,
    ...stat,
    sha256,
    path: job.pagePath,
    title,
    doc,
    titleTokens: toIndexText(title),
    pathTokens: toIndexText(job.pagePath.slice('wiki/'.length)),
    sections,
    chunks,
  };
}

/**
 * A time limit that rejects `race(work)` with a clear message when `work` outlasts `ms` since the start or
 * since the last `extend()` (OCR extends it at every page read, so a long scan gets the limit per page). A parser
 * that never yields cannot be interrupted from its own thread, but one waiting on its own promises (PDF) stops
 * holding the batch.
 */
function timeLimit(ms: number): { race<T>(work: Promise<T>): Promise<T>; extend(): void } {
  let timer: NodeJS.Timeout | undefined;
  let reject: (err: Error) => void = () => undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => reject(new Error(`took longer than ${Math.round(ms / 1000)} s; skipped`)), ms);
  };
  const limit = new Promise<never>((_, r) => (reject = r));
  limit.catch(() => undefined);
  return {
    race(work) {
      arm();
      return Promise.race([work, limit]).finally(() => clearTimeout(timer));
    },
    extend: arm,
  };
}

function problem(
  job: FileJob,
  stat: { size: number; mtimeMs: number },
  sha256: string | null,
  status: 'failed' | 'skipped',
  reason: string,
): Extract<FileOutcome, { kind: 'problem' }> {
  return { kind: 'problem', problem: { folder: job.folder, relPath: job.relPath, ...stat, sha256, status, reason } };
}

function mb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(bytes >= 10 << 20 ? 0 : 1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
