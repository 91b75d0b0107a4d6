/**
 * Starting a real `sift serve` process for end-to-end tests and development: a fresh data folder,
 * the test embedding model and a mock Ollama passed through the environment, the URL (with its
 * token) read from the process's output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running `sift serve`. */
export interface SiftProcess {
  /** The URL to open, with its token. */
  url: string;
  dataDir: string;
  /** Run another `sift` command against the same data folder; resolves with its stdout. */
  cli(...args: string[]): Promise<string>;
  /** Stop the process and wait for it to exit. */
  stop(): Promise<void>;
}

/** Options of {@link startSift}. */
export interface StartSiftOptions {
  /** Data folder. Default: a fresh temp folder, deleted by `stop()`. */
  dataDir?: string;
  /** Folder holding the test embedding model; without it the core tries its default model. */
  modelDir?: string;
  /** Model id inside `modelDir`. Default 'sift-test/tiny-embedder'. */
  modelId?: string;
  /** Base URL of an Ollama(-compatible) server. Default: the core's default. */
  ollamaUrl?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Echo the process's output to this process's stderr (for development). Default false. */
  echo?: boolean;
  /** More environment variables for the process (e.g. `SIFT_EMBEDDING: 'none'`). Default none. */
  env?: Record<string, string>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'sift.mjs');

function waitForUrl(child: ChildProcess, echo: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sift serve printed no URL:\n${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (echo) process.stderr.write(d);
      const m = out.match(/running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
      if (echo) process.stderr.write(d);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sift serve exited with ${code}:\n${out}`));
    });
  });
}

/** Run one `sift` command on `dataDir` with `env`; resolves with its stdout, rejects with its stderr. */
export function runCli(dataDir: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, [bin, '--data-dir', dataDir, ...args], { env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`sift ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** Start `sift serve` and resolve once it prints its URL. */
export async function startSift(options: StartSiftOptions = {}): Promise<SiftProcess> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.modelDir) {
    env.SIFT_MODEL_DIR = options.modelDir;
    env.SIFT_EMBED_MODEL = options.modelId ?? 'sift-test/tiny-embedder';
  }
  if (options.ollamaUrl) env.OLLAMA_HOST = options.ollamaUrl;
  Object.assign(env, options.env);
  const args = [bin, '--data-dir', dataDir, 'serve', '--port', String(options.port ?? 0)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let url: string;
  try {
    url = await waitForUrl(child, options.echo ?? false);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const cli = (...cliArgs: string[]) => runCli(dataDir, cliArgs, env);
  return {
    url,
    dataDir,
    cli,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        // A core busy indexing may take a moment to close its databases; do not wait forever.
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
