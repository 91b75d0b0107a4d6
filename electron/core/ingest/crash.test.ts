/**
 * Crash safety: the `sift ingest` command is killed with SIGKILL at (seeded) random moments while
 * it indexes a changing folder, keyword-only and with the test model, so kills land in scanning,
 * indexing, embedding and removal. After every kill the knowledge-base file must be intact and
 * self-consistent; at the end a re-run completes and its pages and chunks equal a clean run's.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../base/paths';
import { appMigrations } from '../store/migrations/app';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { writeTestModel } from '../embed/testing/test-model';
import { makeKb, openCore, prose, runCli, seededRandom, sha256, spawnCli, writeCorpus, writeFiles } from './testing/fixtures';

/** Fixed so the kill times (and the folder's changes) are the same on every run. */
const SEED = 20261129;
/** Kills per mode; the first run of each mode is not killed (it measures how long a run takes). */
const KILLS = { none: 12, model: 8 };
const MODEL_A = 'sift-test/tiny-embedder';
const MODEL_B = 'sift-test/other-embedder';

const children = new Set<ReturnType<typeof spawnCli>>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL'); // only if an assertion failed mid-run
  children.clear();
});

/** What the store holds after a kill: counts, and each document's fingerprint. */
interface StoreState {
  pages: number;
  chunks: number;
  embedded: number;
  /** The recorded embedding model, or null. */
  model: string | null;
  documents: Map<string, string | null>;
}

function openStore(file: string): Database.Database {
  return openDatabase(file, kbMigrations, `the index at ${file}`, { vectors: true });
}

/** Check every invariant a crash must not break, and return what the store holds (null: no file yet). */
function checkStore(dataDir: string, kbId: string): StoreState | null {
  const app = openDatabase(dataPaths(dataDir).appDb, appMigrations, 'the app database');
  expect(app.pragma('integrity_check', { simple: true })).toBe('ok');
  app.close();
  const file = dataPaths(dataDir).kbDb(kbId);
  if (!fs.existsSync(file)) return null;
  const db = openStore(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // FTS5 compares its index with the content it was built from; it throws when they disagree.
    db.prepare(`INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)`).run();
    const pageText = db.prepare(`SELECT text FROM pages WHERE id = ?`).pluck();
    for (const page of db.prepare(`SELECT id FROM pages`).pluck().all() as number[]) {
      const text = pageText.get(page) as string;
      for (const c of db.prepare(`SELECT start, end, hash FROM chunks WHERE page_id = ?`).all(page) as { start: number; end: number; hash: string }[]) {
        expect(c.hash).toBe(sha256(text.slice(c.start, c.end)));
      }
    }
    expect(db.prepare(`SELECT count(*) FROM documents d LEFT JOIN pages p ON p.document_id = d.id WHERE (d.status = 'indexed') != (p.id IS NOT NULL)`).pluck().get()).toBe(0);
    const { pages, chunks, embedded } = db
      .prepare(`SELECT (SELECT count(*) FROM pages) AS pages, count(*) AS chunks, coalesce(sum(embedded), 0) AS embedded FROM chunks`)
      .get() as { pages: number; chunks: number; embedded: number };
    if (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'vec_bits'`).get()) {
      expect(db.prepare(`SELECT count(*) FROM chunk_vectors`).pluck().get()).toBe(embedded);
      expect(db.prepare(`SELECT count(*) FROM vec_bits`).pluck().get()).toBe(embedded);
      expect(db.prepare(`SELECT count(*) FROM chunk_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id WHERE c.id IS NULL OR c.embedded = 0`).pluck().get()).toBe(0);
    }
    const rows = db.prepare(`SELECT rel_path AS relPath, sha256 FROM documents`).all() as { relPath: string; sha256: string | null }[];
    const model = (db.prepare(`SELECT value FROM kb_meta WHERE key = 'embedding_model'`).pluck().get() as string | undefined) ?? null;
    return { pages, chunks, embedded, model, documents: new Map(rows.map((r) => [r.relPath, r.sha256])) };
  } finally {
    db.close();
  }
}

/** Files whose stored fingerprint does not match the folder (changed, new, or deleted from it). */
function staleFiles(files: Map<string, string>, state: StoreState | null): number {
  let stale = 0;
  for (const [rel, content] of files) if (state?.documents.get(rel) !== sha256(content)) stale++;
  for (const rel of state?.documents.keys() ?? []) if (!files.has(rel)) stale++;
  return stale;
}

/** The pages and chunks a test compares: path, chunk index, span, hash and whether it has a vector. */
function snapshot(dataDir: string, kbId: string): { chunks: unknown[]; documents: unknown[]; model: unknown } {
  const db = openStore(dataPaths(dataDir).kbDb(kbId));
  try {
    return {
      chunks: db.prepare(`SELECT p.path, c.idx, c.start, c.end, c.hash, c.embedded FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.path, c.idx`).all(),
      documents: db.prepare(`SELECT rel_path, size, sha256, status, reason FROM documents ORDER BY rel_path`).all(),
      model: db.prepare(`SELECT value FROM kb_meta WHERE key IN ('embedding_model', 'embedding_dim') ORDER BY key`).pluck().all(),
    };
  } finally {
    db.close();
  }
}

/** Change the folder a little (seeded): rewrite some notes, delete one, add one. */
function changeFolder(root: string, files: Map<string, string>, random: () => number, round: string): void {
  const names = [...files.keys()].sort();
  const changed: Record<string, string> = {};
  for (const name of names) {
    if (random() >= 0.12) continue;
    // Long reports stay long, so the amount of work per run does not shrink round after round.
    const words = name.startsWith('long/') ? 6000 : 40 + Math.floor(random() * 80);
    changed[name] = `# Changed in round ${round}\n\n${prose(random, words)}\n`;
  }
  changed[`added/round-${round}.md`] = `# Added in round ${round}\n\n${prose(random, 60)}\n`;
  writeFiles(root, changed);
  for (const [name, content] of Object.entries(changed)) files.set(name, content);
  const doomed = names[Math.floor(random() * names.length)]!;
  if (!(doomed in changed)) {
    fs.rmSync(path.join(root, doomed));
    files.delete(doomed);
  }
}

/**
 * Start `sift ingest` and SIGKILL it as soon as `killNow()` says so (asked every 20 ms), unless it
 * exits first, which must then be a success. Resolves with whether it was killed.
 */
async function ingestKilledWhen(args: string[], env: Record<string, string>, killNow: () => boolean): Promise<boolean> {
  const child = spawnCli(args, { env });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout!.resume();
  let code: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.on('exit', (c) => resolve(void (code = c))));
  let killed = false;
  while (code === undefined && !killed) {
    if (killNow()) killed = child.kill('SIGKILL');
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await exited;
  children.delete(child);
  if (!killed) expect(code, `sift ingest failed on its own: ${stderr}`).toBe(0);
  return killed;
}

/** A clock for {@link ingestKilledWhen}: true once `ms` have passed since this call. */
function afterMs(ms: number): () => boolean {
  const start = performance.now();
  return () => performance.now() - start >= ms;
}

/** True once the store at `file` records `modelId` and has a vector made with it (read by another process, as WAL allows). */
function embeddingWith(file: string, modelId: string): () => boolean {
  return () => {
    if (!fs.existsSync(file)) return false;
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const model = db.prepare(`SELECT value FROM kb_meta WHERE key = 'embedding_model'`).pluck().get();
      return typeof model === 'string' && model.includes(modelId) && db.prepare(`SELECT 1 FROM chunks WHERE embedded = 1 LIMIT 1`).get() !== undefined;
    } catch {
      return false; // the tables are being made right now
    } finally {
      db.close();
    }
  };
}

/** One knowledge base under test: its data folder, id, fixture folder and what that folder holds now. */
interface Subject {
  dataDir: string;
  kbId: string;
  root: string;
  files: Map<string, string>;
  random: () => number;
  log: string[];
}

/** What the kills of one mode achieved: how many landed part-way through indexing or embedding. */
interface Landed {
  midIndexing: number;
  midEmbedding: number;
}

/** How one mode's runs are made and killed. */
interface Mode {
  label: string;
  kills: number;
  /** Earliest kill, as a share of a whole run's duration; the latest is 1.05 (a few runs finish first). */
  from: number;
  /** The environment of a run, given what the store holds before it. */
  env: (before: StoreState | null) => Record<string, string>;
}

/**
 * Change the folder and run `sift ingest` once to the end (measuring it), then kill it
 * `mode.kills` times at random moments within that duration, changing the folder before each run
 * and checking the store after each kill.
 */
async function killRuns(s: Subject, mode: Mode): Promise<Landed> {
  const args = ['--data-dir', s.dataDir, 'ingest', 'Crash'];
  changeFolder(s.root, s.files, s.random, `${mode.label}-0`);
  const t0 = performance.now();
  expect(await ingestKilledWhen(args, mode.env(checkStore(s.dataDir, s.kbId)), () => false)).toBe(false);
  const spanMs = performance.now() - t0;
  s.log.push(`${mode.label}: a whole run takes ${spanMs.toFixed(0)} ms`);
  const landed: Landed = { midIndexing: 0, midEmbedding: 0 };
  for (let done = 0, round = 1; done < mode.kills; round++) {
    expect(round, 'too many runs finished before their kill').toBeLessThan(mode.kills * 3);
    changeFolder(s.root, s.files, s.random, `${mode.label}-${round}`);
    const before = checkStore(s.dataDir, s.kbId);
    const delayMs = Math.round((mode.from + (1.05 - mode.from) * s.random()) * spanMs);
    const killed = await ingestKilledWhen(args, mode.env(before), afterMs(delayMs));
    const after = checkStore(s.dataDir, s.kbId);
    const [staleBefore, staleAfter] = [staleFiles(s.files, before), staleFiles(s.files, after)];
    const midIndexing = killed && staleAfter > 0 && staleAfter < staleBefore;
    // A model switch resets every vector, so vectors present after the kill were made by the killed run.
    const midEmbedding = killed && !!after && after.model !== before?.model && after.embedded > 0 && after.embedded < after.chunks;
    landed.midIndexing += Number(midIndexing);
    landed.midEmbedding += Number(midEmbedding);
    const vectors = after?.model ? `, vectors ${before?.embedded ?? 0} → ${after.embedded}/${after.chunks} (${after.model.split(':')[1]})` : '';
    s.log.push(`${mode.label} ${killed ? 'killed' : 'finished'} at ${delayMs} ms: stale files ${staleBefore} → ${staleAfter}${vectors}`);
    if (killed) done++;
  }
  return landed;
}

/** A knowledge base `Crash` over a fresh corpus, indexed once keyword-only (so runs below do a rerun's work). */
async function prepareSubject(): Promise<Subject> {
  const root = tempDir();
  const files = new Map(Object.entries(writeCorpus(root, { small: 60, large: 8, seed: SEED })));
  const dataDir = tempDir();
  const setup = openCore(dataDir);
  const kbId = await makeKb(setup, 'Crash', [root]);
  await setup.close();
  expect((await runCli(['--data-dir', dataDir, 'ingest', 'Crash'], { env: { SIFT_EMBEDDING: 'none' } })).code).toBe(0);
  return { dataDir, kbId, root, files, random: seededRandom(SEED), log: [] };
}

/** Index the same folder from scratch in another data folder and compare pages, chunks and documents. */
async function expectSameAsCleanRun(s: Subject, models: string): Promise<void> {
  const cleanDir = tempDir();
  const clean = openCore(cleanDir, { embedding: { provider: 'transformers', modelId: MODEL_A, localModelDir: models, allowDownload: false } });
  const cleanKb = await makeKb(clean, 'Crash', [s.root]);
  expect(await clean.ingest(cleanKb)).toMatchObject({ state: 'done', error: null });
  await clean.close();
  expect(snapshot(s.dataDir, s.kbId)).toEqual(snapshot(cleanDir, cleanKb));
}

describe('crash safety', () => {
  it('keeps the knowledge base intact through 20+ SIGKILLs, and a re-run equals a clean run', async () => {
    const started = performance.now();
    const models = tempDir();
    await writeTestModel(models, { modelId: MODEL_A });
    await writeTestModel(models, { modelId: MODEL_B, dimension: 32 });
    const withModel = (modelId: string) => ({ SIFT_EMBEDDING: 'transformers', SIFT_MODEL_DIR: models, SIFT_EMBED_MODEL: modelId });
    // Each model run uses the model the store does not have, so it re-embeds every chunk.
    const otherModel = (before: StoreState | null) => (before?.model?.includes(MODEL_A) ? MODEL_B : MODEL_A);
    const s = await prepareSubject();
    const args = ['--data-dir', s.dataDir, 'ingest', 'Crash'];
    const landed: Landed[] = [];
    try {
      landed.push(await killRuns(s, { label: 'keyword-only', kills: KILLS.none, from: 0.15, env: () => ({ SIFT_EMBEDDING: 'none' }) }));
      // Model runs are killed later: start-up, indexing and loading the model come first.
      landed.push(await killRuns(s, { label: 'model', kills: KILLS.model, from: 0.35, env: (before) => withModel(otherModel(before)) }));
      // And once exactly in the embedding phase, whatever this machine's speed.
      const target = otherModel(checkStore(s.dataDir, s.kbId));
      expect(await ingestKilledWhen(args, withModel(target), embeddingWith(dataPaths(s.dataDir).kbDb(s.kbId), target))).toBe(true);
      const mid = checkStore(s.dataDir, s.kbId)!;
      s.log.push(`model killed once embedding with ${target} began: vectors ${mid.embedded}/${mid.chunks}`);
      expect(mid.model).toContain(target);
      expect(mid.embedded).toBeGreaterThan(0);
      expect(mid.embedded).toBeLessThan(mid.chunks);
    } finally {
      console.info(`crash test kills (seed ${SEED}):\n  ${s.log.join('\n  ')}`);
    }

    const rerun = await runCli([...args, '--json'], { env: withModel(MODEL_A) });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ state: 'done', error: null, problems: [] });
    const final = checkStore(s.dataDir, s.kbId)!;
    expect(staleFiles(s.files, final)).toBe(0);
    expect(final.embedded).toBe(final.chunks);
    await expectSameAsCleanRun(s, models);

    const midIndexing = landed.reduce((n, l) => n + l.midIndexing, 0);
    const midEmbedding = landed.reduce((n, l) => n + l.midEmbedding, 0);
    console.info(`crash test: random kills landed ${midIndexing} times mid-indexing, ${midEmbedding} mid-embedding; ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
    expect(midIndexing, 'no random kill landed part-way through indexing').toBeGreaterThan(0);
  }, 180_000);
});
