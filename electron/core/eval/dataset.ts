/**
 * Evaluation datasets on disk, in one of two formats:
 * - BEIR: `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl`, `qrels/<split>.tsv`;
 * - folder: `docs/` (any files Sift reads), `queries.jsonl`, `qrels/<split>.tsv` whose corpus ids
 *   are paths relative to `docs/` (with `/` between folders).
 * `queries.jsonl` lines are `{"_id", "text", "category"?}`; a qrels file is a header line, then
 * `query-id <TAB> corpus-id <TAB> score` rows (score > 0: relevant; higher: more relevant).
 * An optional `followups.jsonl` (either format) holds follow-up questions of a conversation:
 * `{"_id", "history": ["earlier question", …], "text", "category"?}`, judged in the same qrels; they are searched
 * with their history, so follow-up rewriting can be measured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SiftError } from '../../../shared/errors';

/** One query of a dataset. */
export interface EvalQuery {
  id: string;
  text: string;
  /** A group to report figures for (e.g. `zh-2char`), or null. */
  category: string | null;
  /** A follow-up's earlier questions, oldest first (from `followups.jsonl`); absent for a standalone query. */
  history?: string[];
}

/** Relevance judgements: query id → (corpus id → graded score). */
export type Qrels = Map<string, Map<string, number>>;

/** Where the documents of a dataset are. */
export type EvalCorpus = { format: 'folder'; docsDir: string } | { format: 'beir'; corpusFile: string };

/** A dataset ready to run: its documents, its queries and the judgements of one split. */
export interface EvalDataset {
  /** The dataset folder's own name. */
  name: string;
  dir: string;
  split: string;
  corpus: EvalCorpus;
  queries: EvalQuery[];
  qrels: Qrels;
  /** The qrels file of the split, for messages. */
  qrelsFile: string;
}

/** The split read when none is named. */
export const DEFAULT_SPLIT = 'test';

const SPLIT_NAME = /^[\w.-]+$/;

function bad(file: string, line: number, what: string): SiftError {
  return new SiftError('invalid_argument', `${file}:${line}: ${what}`);
}

/** Non-empty lines of a text with their 1-based line numbers (a trailing `\r` is dropped). */
function lines(text: string): { line: number; content: string }[] {
  return text
    .split('\n')
    .map((content, i) => ({ line: i + 1, content: content.replace(/\r$/, '') }))
    .filter((l) => l.content.trim() !== '');
}

/** An `_id` as a string: BEIR ids are strings, but some files write numbers. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Parse one JSON Lines line as an object, or throw naming the file and line. */
export function jsonLine(content: string, file: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    throw bad(file, line, `not valid JSON (${(err as Error).message}); each line must be one JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(file, line, 'each line must be one JSON object');
  return value as Record<string, unknown>;
}

/** The queries of a `queries.jsonl` text; `file` names it in errors. Ids must be unique, texts non-empty. */
export function parseQueries(text: string, file: string): EvalQuery[] {
  const seen = new Set<string>();
  return lines(text).map(({ line, content }) => {
    const row = jsonLine(content, file, line);
    const id = idOf(row._id);
    if (id === null) throw bad(file, line, 'the query has no "_id"');
    if (seen.has(id)) throw bad(file, line, `the query id "${id}" is used twice`);
    seen.add(id);
    if (typeof row.text !== 'string' || row.text.trim() === '') throw bad(file, line, `the query "${id}" has no "text"`);
    if (row.category !== undefined && row.category !== null && typeof row.category !== 'string') throw bad(file, line, '"category" must be a string');
    return { id, text: row.text, category: typeof row.category === 'string' && row.category !== '' ? row.category : null };
  });
}

/** The follow-ups of a `followups.jsonl` text: queries with a non-empty `history` of questions. */
export function parseFollowUps(text: string, file: string): EvalQuery[] {
  const queries = parseQueries(text, file);
  return lines(text).map(({ line, content }, i) => {
    const history = jsonLine(content, file, line).history;
    const ok = Array.isArray(history) && history.length > 0 && history.every((h) => typeof h === 'string' && h.trim() !== '');
    if (!ok) throw bad(file, line, `the follow-up "${queries[i]!.id}" needs "history": a list of earlier questions`);
    return { ...queries[i]!, history: history as string[] };
  });
}

/**
 * The judgements of a qrels text (`query-id`, `corpus-id`, `score`, separated by tabs; corpus ids
 * may contain spaces). The first line is skipped when its score column is not a number (the
 * header). A pair judged twice keeps its last score.
 */
export function parseQrels(text: string, file: string): Qrels {
  const qrels: Qrels = new Map();
  lines(text).forEach(({ line, content }, i) => {
    const fields = content.split('\t');
    const isHeader = i === 0 && !Number.isFinite(Number(fields[2]?.trim()));
    if (isHeader) return;
    if (fields.length !== 3) throw bad(file, line, `expected 3 tab-separated fields (query-id, corpus-id, score), got ${fields.length}`);
    const [queryId, corpusId, score] = fields.map((f) => f.trim()) as [string, string, string];
    const value = Number(score);
    if (!queryId || !corpusId) throw bad(file, line, 'the query id or corpus id is empty');
    if (score === '' || !Number.isFinite(value)) throw bad(file, line, `the score "${score}" is not a number`);
    let judged = qrels.get(queryId);
    if (!judged) qrels.set(queryId, (judged = new Map()));
    judged.set(corpusId, value);
  });
  return qrels;
}

/** The queries with at least one relevant document (score > 0) in the split's qrels: the ones scored. */
export function judgedQueries(dataset: Pick<EvalDataset, 'queries' | 'qrels'>): EvalQuery[] {
  return dataset.queries.filter((q) => [...(dataset.qrels.get(q.id)?.values() ?? [])].some((score) => score > 0));
}

function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SiftError('not_found', `eval: the dataset has no ${what} (${file})`);
    throw new SiftError('io_error', `eval: could not read ${file}: ${(err as Error).message}`);
  }
}

function availableSplits(dir: string): string[] {
  try {
    return fs.readdirSync(path.join(dir, 'qrels')).filter((f) => f.endsWith('.tsv')).map((f) => f.slice(0, -4)).sort();
  } catch {
    return [];
  }
}

/** Which format the folder holds: `corpus.jsonl` → BEIR, `docs/` → folder. */
function corpusOf(dir: string): EvalCorpus {
  const corpusFile = path.join(dir, 'corpus.jsonl');
  if (fs.existsSync(corpusFile)) return { format: 'beir', corpusFile };
  const docsDir = path.join(dir, 'docs');
  if (fs.existsSync(docsDir) && fs.statSync(docsDir).isDirectory()) return { format: 'folder', docsDir: fs.realpathSync(docsDir) };
  throw new SiftError('invalid_argument', `eval: ${dir} is not a dataset: it needs corpus.jsonl (BEIR format) or a docs/ folder (folder format)`);
}

/**
 * Load a dataset folder (either format) with the judgements of `split` (default `test`).
 * Throws `not_found` for a missing folder, queries file or split (naming the splits there are),
 * and `invalid_argument` for a malformed line (naming file and line).
 */
export function loadDataset(dir: string, split: string = DEFAULT_SPLIT): EvalDataset {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new SiftError('not_found', `eval: there is no dataset folder ${root}`);
  if (!SPLIT_NAME.test(split)) throw new SiftError('invalid_argument', `eval: the split "${split}" is not a name like test or dev`);
  const corpus = corpusOf(root);
  const queriesFile = path.join(root, 'queries.jsonl');
  const queries = parseQueries(readText(queriesFile, 'queries.jsonl'), queriesFile);
  const followUpsFile = path.join(root, 'followups.jsonl');
  if (fs.existsSync(followUpsFile)) {
    const ids = new Set(queries.map((q) => q.id));
    for (const q of parseFollowUps(readText(followUpsFile, 'followups.jsonl'), followUpsFile)) {
      if (ids.has(q.id)) throw new SiftError('invalid_argument', `${followUpsFile}: the id "${q.id}" is also a query of queries.jsonl`);
      queries.push(q);
    }
  }
  const qrelsFile = path.join(root, 'qrels', `${split}.tsv`);
  if (!fs.existsSync(qrelsFile)) {
    const splits = availableSplits(root);
    const hint = splits.length ? `; it has ${splits.join(', ')} (choose one with --split)` : '; add qrels/<split>.tsv';
    throw new SiftError('not_found', `eval: the dataset has no split "${split}" (${qrelsFile})${hint}`);
  }
  const qrels = parseQrels(readText(qrelsFile, `qrels/${split}.tsv`), qrelsFile);
  return { name: path.basename(root), dir: root, split, corpus, queries, qrels, qrelsFile };
}
