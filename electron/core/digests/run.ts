/**
 * One digest run of a knowledge base: drop the digests whose source page went, make the digest of every
 * page whose content hash moved since its digest was made (one model call each, one page at a time), then
 * the overview when any digest changed. A digest whose citations fail validation is not stored and is
 * reported; a cancel stops after the page being written, keeping what was made.
 */
import type Database from 'better-sqlite3';
import type { DigestProblem, DigestStatus } from '../../../shared/models';
import { SiftError } from '../../../shared/errors';
import { complete } from '../llm/complete';
import type { LlmClient, LlmMessage } from '../llm/types';
import { sha256 } from '../search/passages';
import { OVERVIEW_PATH, addressTaken, digestPathOf, removeDigest, sourcePages, storedDigests } from './store';
import { writeDigest } from './store';
import type { SourcePage, StoredDigest } from './store';
import { checkDigest, digestMarkdown, digestPassages, overviewMessages, pageMessages, pagePassages } from './write';

/** Tunables of a digest run. */
export interface DigestOptions {
  /** Time one digest's reply may take, ms. Default 120,000 (a local model writing a few hundred tokens;
   *  5,000–600,000). */
  timeoutMs: number;
  /** Upper bound on a digest's generated tokens. Default 600 (100–4,000). */
  maxTokens: number;
}

/** Default {@link DigestOptions}. */
export const DIGEST_DEFAULTS: DigestOptions = { timeoutMs: 120_000, maxTokens: 600 };

/** What a run needs from its surroundings. */
export interface DigestRunDeps {
  db: Database.Database;
  llm: LlmClient;
  model: string;
  status: DigestStatus;
  /** Report progress (the caller throttles unless `force`). */
  progress(force?: boolean): void;
  signal: AbortSignal;
  options: DigestOptions;
}

/** Make the digests that are missing or stale, and the overview. Throws SiftError('cancelled') on cancel. */
export async function runDigests(deps: DigestRunDeps): Promise<void> {
  const { db, status } = deps;
  const sources = sourcePages(db);
  const stored = storedDigests(db);
  const live = new Set(sources.map((s) => s.path));
  for (const [source, digest] of stored) {
    if (source === OVERVIEW_PATH || live.has(source)) continue;
    removeDigest(db, digest);
    stored.delete(source);
    status.removed++;
  }
  const todo = sources.filter((s) => stored.get(s.path)?.sourceHash !== s.sha256);
  status.unchanged = sources.length - todo.length;
  status.pagesTotal = todo.length;
  deps.progress(true);
  for (const source of todo) {
    if (deps.signal.aborted) throw new SiftError('cancelled', 'the digest run was cancelled');
    status.currentPage = source.path;
    deps.progress(true); // each page is a model call of seconds: always say which one is being written
    await digestPage(deps, source, stored.get(source.path));
    status.pagesDone++;
    deps.progress();
  }
  status.currentPage = null;
  if (deps.signal.aborted) throw new SiftError('cancelled', 'the digest run was cancelled');
  await makeOverview(deps);
}

/** Ask for one page's digest, check it, and store it, or record why not (the old digest goes either way). */
async function digestPage(deps: DigestRunDeps, source: SourcePage, old: StoredDigest | undefined): Promise<void> {
  const { db, status } = deps;
  const path = digestPathOf(source.path);
  if (addressTaken(db, path)) {
    return problem(status, source.path, 'failed', `a page read from a file already has the address ${path}`);
  }
  const passages = pagePassages(db, source.pageId);
  const reply = passages.length ? await ask(deps, pageMessages(source.title, source.path, passages), source.path) : null;
  // A stale digest says what the page no longer says: it goes, whether or not a new one is made.
  if (old) removeDigest(db, old);
  if (reply === null) return;
  const checked = checkDigest(reply, passages);
  if (!checked.ok) return problem(status, source.path, 'rejected', checked.reason);
  const title = `Digest: ${source.title}`;
  const markdown = digestMarkdown(title, checked.points, passages);
  await writeDigest(db, { path, title, markdown, source: source.path, sourceHash: source.sha256, model: deps.model });
  status.generated++;
}

/**
 * Make the overview from the page digests when they changed since it was made (its hash is that of the
 * digests' own source hashes); remove it when no digest is left.
 */
async function makeOverview(deps: DigestRunDeps): Promise<void> {
  const { db, status } = deps;
  const stored = storedDigests(db);
  const old = stored.get(OVERVIEW_PATH);
  const digests = [...stored.values()].filter((d) => d !== old).sort((a, b) => a.path.localeCompare(b.path));
  if (digests.length === 0) {
    if (old) removeDigest(db, old);
    return;
  }
  const hash = sha256(digests.map((d) => `${d.path}\t${d.sourceHash}`).join('\n'));
  if (old?.sourceHash === hash) return;
  const ids = digests.map((d) => db.prepare(`SELECT id FROM pages WHERE path = ?`).pluck().get(d.path) as number);
  const passages = digestPassages(db, ids);
  status.currentPage = OVERVIEW_PATH;
  deps.progress(true);
  const reply = await ask(deps, overviewMessages(passages), OVERVIEW_PATH);
  status.currentPage = null;
  if (old) removeDigest(db, old);
  if (reply === null) return;
  const checked = checkDigest(reply, passages);
  if (!checked.ok) return problem(status, OVERVIEW_PATH, 'rejected', checked.reason);
  const title = 'Knowledge base overview';
  const markdown = digestMarkdown(title, checked.points, passages);
  const { model } = deps;
  await writeDigest(db, { path: OVERVIEW_PATH, title, markdown, source: OVERVIEW_PATH, sourceHash: hash, model });
  status.generated++;
}

/** The model's reply, or null with the failure recorded; a cancel is thrown on. */
async function ask(deps: DigestRunDeps, messages: LlmMessage[], path: string): Promise<string | null> {
  const { timeoutMs, maxTokens } = deps.options;
  try {
    return await complete(deps.llm, deps.model, messages, { timeoutMs, maxTokens, signal: deps.signal });
  } catch (err) {
    if (deps.signal.aborted) throw new SiftError('cancelled', 'the digest run was cancelled');
    problem(deps.status, path, 'failed', `the model failed: ${(err as Error).message}`);
    return null;
  }
}

function problem(status: DigestStatus, path: string, kind: DigestProblem['status'], reason: string): void {
  status.problems.push({ path, status: kind, reason });
}
