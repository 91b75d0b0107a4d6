/**
 * Test-only helpers for the ingest integration tests: building fixture folders on disk, starting a
 * real core on a data folder, calling operations through its validated `invoke`, and reading a
 * knowledge base's pages and chunks back for comparison. Not imported by production code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpArgs, OpName, OpResult } from '../../../../shared/contract';
import { SiftError } from '../../../../shared/errors';
import type { IngestStatus, PageDetail } from '../../../../shared/models';
import type { EmbeddingConfig } from '../../embed/embedding';
import { writeTestModel, type TestModelOptions } from '../../embed/testing/test-model';
import { createSift, type Sift, type SiftConfig } from '../../sift';

/** Call an operation through the core's `invoke` (arguments validated as a host would send them); throws its error. */
export async function call<N extends OpName>(sift: Sift, op: N, args: OpArgs<N>): Promise<OpResult<N>> {
  const result = await sift.invoke(op, args);
  if (!result.ok) throw new SiftError(result.error.code, result.error.message);
  return result.value as OpResult<N>;
}

/** Create `files` (relative `/`-separated path → content) under `root`, making folders as needed. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** Start a core on `dataDir`; keyword-only unless `config.embedding` says otherwise. */
export function openCore(dataDir: string, config: Partial<Omit<SiftConfig, 'dataDir'>> = {}): Sift {
  return createSift({ embedding: { provider: 'none' }, ...config, dataDir });
}

/** Create knowledge base `name` with `folders` added in order; returns its id. */
export async function makeKb(sift: Sift, name: string, folders: string[]): Promise<string> {
  const kb = await call(sift, 'kb.create', { name });
  for (const folder of folders) await call(sift, 'folder.add', { kb: kb.id, path: folder });
  return kb.id;
}

/**
 * Write the tiny test model into `dir` and return the embedding configuration that loads it
 * offline. `options` picks another model id or dimension (default `sift-test/tiny-embedder`, 64).
 */
export async function testEmbedding(dir: string, options: TestModelOptions = {}): Promise<EmbeddingConfig> {
  const { modelId } = await writeTestModel(dir, options);
  return { provider: 'transformers', modelId, localModelDir: dir, allowDownload: false };
}

/** sha256 hex of a text's UTF-8 bytes (how chunk hashes are defined). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** One chunk as the store has it, with its text sliced from the page. */
export interface ChunkRecord {
  path: string;
  index: number;
  start: number;
  end: number;
  hash: string;
  embedded: boolean;
  text: string;
}

/** Every page of a knowledge base in full, by path (through `pages.list` and `pages.get`). */
export async function allPages(sift: Sift, kb: string): Promise<Map<string, PageDetail>> {
  const out = new Map<string, PageDetail>();
  for (const summary of await call(sift, 'pages.list', { kb })) out.set(summary.path, await call(sift, 'pages.get', { kb, path: summary.path }));
  return out;
}

/** Every chunk of every page, in page-path then chunk order, its text sliced from the page text by its span. */
export async function allChunks(sift: Sift, kb: string): Promise<ChunkRecord[]> {
  const out: ChunkRecord[] = [];
  for (const page of (await allPages(sift, kb)).values()) {
    for (const c of page.chunkSpans) {
      out.push({ path: page.path, index: c.index, start: c.start, end: c.end, hash: c.hash, embedded: c.embedded, text: page.text.slice(c.start, c.end) });
    }
  }
  return out;
}

/**
 * Poll `check` every `everyMs` (default 25 ms) until it returns true; resolves with the time it took
 * in ms, rejects naming `what` after `timeoutMs`.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs = 25): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`waitFor: ${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Record every `ingest.progress` event of knowledge base `kb`; call the returned `stop` to stop listening. */
export function recordProgress(sift: Sift, kb: string): { events: IngestStatus[]; stop: () => void } {
  const events: IngestStatus[] = [];
  const stop = sift.onEvent((name, payload) => {
    if (name === 'ingest.progress' && (payload as IngestStatus).kbId === kb) events.push(payload as IngestStatus);
  });
  return { events, stop };
}

/**
 * A deterministic generator of numbers in [0, 1) from `seed`, so "random" fixtures and kill times
 * repeat run after run. A 32-bit linear congruential step: plenty for picking files and delays.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = [
  'deploy', 'rollback', 'gateway', 'retry', 'timeout', 'cache', 'index', 'shard', 'replica', 'quorum',
  '部署', '回滚', '网关', '重试', '超时', '缓存', '索引', '分片', '副本', '配置', 'E_CONN_RESET', 'v1/chat',
];

/** A paragraph of `words` pseudo-random English and Chinese words. */
export function prose(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
}

/**
 * A folder of `small` short Markdown notes (spread over ten sub-folders) plus `large` longer ones
 * with headings, all derived from `seed`: the same arguments always write the same bytes. Returns
 * what it wrote (relative path → content).
 */
export function writeCorpus(root: string, options: { small: number; large: number; seed: number }): Record<string, string> {
  const random = seededRandom(options.seed);
  const files: Record<string, string> = {};
  for (let i = 0; i < options.small; i++) files[`area-${i % 10}/note-${i}.md`] = `# Note ${i}\n\n${prose(random, 30 + Math.floor(random() * 60))}\n`;
  for (let i = 0; i < options.large; i++) {
    const sections = Array.from({ length: 40 }, (_, s) => `## Part ${s}\n\n${prose(random, 120)}\n\n${prose(random, 80)}\n`);
    files[`long/report-${i}.md`] = `# Report ${i}\n\n${sections.join('\n')}`;
  }
  writeFiles(root, files);
  return files;
}

/** The `sift` command of this checkout (runs the TypeScript sources through tsx). */
export const SIFT_BIN = fileURLToPath(new URL('../../../../bin/sift.mjs', import.meta.url));

/** What a finished CLI run printed. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `node bin/sift.mjs …args` to completion. `env` is added to a minimal environment (PATH, HOME,
 * TMPDIR); `uid`/`gid` run it as another user (the caller must be root). Default timeout 60 s.
 */
export function runCli(args: string[], options: { env?: Record<string, string>; uid?: number; gid?: number; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Start `node bin/sift.mjs …args` without waiting for it (see {@link runCli} for the options). */
export function spawnCli(args: string[], options: { env?: Record<string, string>; uid?: number; gid?: number } = {}): ChildProcess {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), TMPDIR: os.tmpdir() };
  return spawn(process.execPath, [SIFT_BIN, ...args], {
    cwd: path.dirname(SIFT_BIN),
    env: { ...base, ...options.env },
    uid: options.uid,
    gid: options.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
