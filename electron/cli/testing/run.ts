/**
 * Running the CLI inside a test: the real `runCli` with its output captured, and the setting most CLI tests share
 * (keyword-only indexing, no embedding model, and the Ollama test server for the commands that ask a model).
 */
import { afterAll, beforeAll } from 'vitest';
import { startMockOllama, type MockOllama } from '../../core/testing/ollama-mock';
import { runCli } from '../main';

/** What a CLI run printed: its exit code, stdout (lines and streamed text) and stderr lines joined. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run `sift ARGV…` with streamed output (`write`) captured into `out` as well as whole lines. */
export async function run(...argv: string[]): Promise<CliRun> {
  let out = '';
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => (out += `${l}\n`), write: (t) => (out += t), err: (l) => err.push(l) });
  return { code, out: out.replace(/\n$/, ''), err: err.join('\n') };
}

/** Run `sift ARGV…` as a host that can only print whole lines (no streamed writes). */
export async function runLines(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * For the tests of this file: SIFT_EMBEDDING=none (restored after) and an Ollama test server, started before them
 * and closed after. Returns a holder whose `ollama` is the server once the tests run.
 */
export function keywordOnlyWithMockOllama(): { ollama: MockOllama } {
  const holder = {} as { ollama: MockOllama };
  const before = process.env.SIFT_EMBEDDING;
  beforeAll(async () => {
    process.env.SIFT_EMBEDDING = 'none';
    holder.ollama = await startMockOllama();
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SIFT_EMBEDDING;
    else process.env.SIFT_EMBEDDING = before;
    await holder.ollama?.close();
  });
  return holder;
}
