/**
 * The `sift` command line: the same core as the app, through the same `invoke`. Each command
 * maps its words to one operation and prints the result for people, or as JSON with `--json`.
 * Errors print one line to stderr and exit non-zero (2 for usage, 1 for failures).
 */
import { parseArgs } from 'node:util';
import { createSift, embeddingConfigFromEnv, resolveDataDir, type Sift } from '../core';
import type { CommandIo } from './command';
import { kbCommands } from './commands';
import { ingestCommands } from './ingest-commands';
import { searchCommands } from './search-commands';
import { evalCommands } from './eval-commands';
import { chatCommands } from './chat-commands';
import { exportCommands } from './export-commands';
import { mcpCommands } from './mcp-commands';
import { glossaryCommands } from './glossary-commands';
import { digestCommands } from './digest-commands';
import { HELP } from './help';
import { VERSION } from '../core/base/version';
import { errorHint } from './hints';
import { argsErrorMessage, UsageError } from './usage';


const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  port: { type: 'string' },
  static: { type: 'string' },
  watch: { type: 'boolean' },
  'top-k': { type: 'string' },
  mode: { type: 'string' },
  model: { type: 'string' },
  'ollama-host': { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  conversation: { type: 'string' },
  split: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  message: { type: 'string' },
  kb: { type: 'string', multiple: true },
  'follow-links': { type: 'boolean' },
  on: { type: 'boolean' },
  off: { type: 'boolean' },
  rewrite: { type: 'boolean' },
  'multi-query': { type: 'string' },
  hyde: { type: 'boolean' },
  rerank: { type: 'string' },
  enhance: { type: 'string' },
  history: { type: 'string', multiple: true },
} as const;

const commands = { ...kbCommands, ...ingestCommands, ...searchCommands, ...evalCommands, ...chatCommands, ...exportCommands, ...mcpCommands, ...glossaryCommands, ...digestCommands };

/** Run the CLI with `argv` (without node and script) and return the exit code. */
export async function runCli(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`sift: ${argsErrorMessage(err)}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out(VERSION);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    io.out(HELP);
    return 0;
  }
  const [group, verb] = positionals;
  const command = commands[`${group} ${verb}`] ?? commands[group ?? ''];
  if (!command) {
    io.err(`sift: unknown command "${positionals.slice(0, 2).join(' ')}". See sift --help.`);
    return 2;
  }
  const rest = positionals.slice(command.words);
  let sift = null as Sift | null; // set by the getter below
  let code = 1;
  try {
    const dataDir = resolveDataDir(values['data-dir']);
    // Opened on first use, so a command that needs no data folder (eval) creates none.
    const input = {
      get sift(): Sift {
        sift ??= createSift({ dataDir, embedding: embeddingConfigFromEnv(), ...command.core?.(values) });
        return sift;
      },
      args: rest,
      flags: values,
      io,
    };
    code = await command.run(input);
    return code;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`sift: ${err.message}`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.err(`sift: ${message}${errorHint(err)}`);
    return 1;
  } finally {
    // A command that keeps running (serve) keeps the core only when it started; one that failed closes it.
    if (!command.keepsRunning || code !== 0) await sift?.close();
  }
}

function defaultIo(): CommandIo {
  return {
    out: (line) => process.stdout.write(line.endsWith('\n') ? line : `${line}\n`),
    err: (line) => process.stderr.write(line.endsWith('\n') ? line : `${line}\n`),
    write: (text) => process.stdout.write(text),
  };
}
