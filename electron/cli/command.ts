/** What every CLI command is made of, and the small helpers they share. */
import type { OpArgs, OpName, OpResult } from '../../shared/contract';
import { SiftError } from '../../shared/errors';
import type { Sift, SiftConfig } from '../core';
import { withoutOperationName } from './hints';
import { UsageError } from './usage';

/** Where a command prints. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Write without a line break (streamed answers). Default: like `out`. */
  write?(text: string): void;
}

/** What a command is given. */
export interface CommandInput {
  /** The core on the data folder, opened when first read (a command that never reads it leaves the folder alone). */
  sift: Sift;
  args: string[];
  flags: { json?: boolean; port?: string; static?: string; watch?: boolean; 'top-k'?: string; mode?: string; model?: string; 'ollama-host'?: string; conversation?: string; format?: string; out?: string; message?: string; 'follow-links'?: boolean;
    kb?: string[]; on?: boolean; off?: boolean; provider?: string; 'base-url'?: string; rewrite?: boolean; 'multi-query'?: string; hyde?: boolean; rerank?: string; enhance?: string; history?: string[] };
  io: CommandIo;
}

/** One command of the CLI. */
export interface Command {
  /** How many positional words name the command (`kb create` = 2). */
  words: number;
  /** The command keeps the core open after `run` resolves (e.g. `serve`). */
  keepsRunning?: boolean;
  /** Core options this command needs (e.g. `serve` indexes and watches in the background). */
  core?: (flags: CommandInput['flags']) => Partial<Omit<SiftConfig, 'dataDir'>>;
  run(input: CommandInput): Promise<number>;
}

/** Call an operation through the core's validated `invoke`; throw its error for the CLI to print. */
export async function call<N extends OpName>(sift: Sift, op: N, args: OpArgs<N>): Promise<OpResult<N>> {
  const result = await sift.invoke(op, args);
  if (!result.ok) throw new SiftError(result.error.code, withoutOperationName(op, result.error.message));
  return result.value as OpResult<N>;
}

/** Exactly these positional arguments, or a usage error naming them. */
export function need(args: string[], names: string[]): string[] {
  if (args.length !== names.length) {
    const usage = names.map((n) => n.toUpperCase()).join(' ');
    throw new UsageError(`expected ${usage}, got ${args.length} argument(s). See sift --help.`);
  }
  return args;
}

/** Print a value as indented JSON; returns exit code 0. */
export function printJson(io: CommandIo, value: unknown): number {
  io.out(JSON.stringify(value, null, 2));
  return 0;
}

/** Rows as aligned columns (the first row is the header). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

