/**
 * The engine's one facade. `createSift({ dataDir })` opens the app database and returns the
 * handler table plus `invoke`, which validates arguments against the contract and turns every
 * failure into the one error shape. Hosts call `invoke` and forward events; they hold no logic.
 */
import { operations, isOpName, type Handlers, type OpName, type OpResult } from '../../shared/contract';
import { SiftError, fail, ok, type Result } from '../../shared/errors';
import { VERSION } from './version';
import type { CoreContext } from './context';
import { EventBus } from './events';
import { KbFiles } from './kb/kb-files';
import { folderHandlers } from './kb/folders';
import { knowledgeBaseHandlers } from './kb/knowledge-bases';
import { dataPaths } from './paths';
import { appMigrations } from './store/migrations/app';
import { kbMigrations } from './store/migrations/kb';
import { openDatabase } from './store/open';
import { formatZodError } from './validate';

/** Options of {@link createSift}. */
export interface SiftConfig {
  /** Folder holding `sift.sqlite`, `kbs/`, `models/` and `logs/`. Created when missing. */
  dataDir: string;
}

/** A running core. */
export interface Sift {
  readonly dataDir: string;
  /** The handler table, typed from the contract (arguments must already be valid). */
  readonly handlers: Handlers;
  /** Validate raw arguments and run an operation; never throws. */
  invoke(op: string, args: unknown): Promise<Result<unknown>>;
  /** Listen to every event the core emits. Returns a function that stops listening. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Close every database. The instance must not be used afterwards. */
  close(): void;
}

/** Start the engine on a data folder. */
export function createSift(config: SiftConfig): Sift {
  const paths = dataPaths(config.dataDir);
  const appDb = openDatabase(paths.appDb, appMigrations, 'the app database');
  const ctx: CoreContext = { dataDir: config.dataDir, appDb, events: new EventBus(), kbFiles: new KbFiles(config.dataDir) };

  const handlers: Handlers = {
    async 'app.info'() {
      return { version: VERSION, dataDir: config.dataDir, appSchemaVersion: appMigrations.length, kbSchemaVersion: kbMigrations.length };
    },
    ...knowledgeBaseHandlers(ctx),
    ...folderHandlers(ctx),
  };

  async function invoke(op: string, args: unknown): Promise<Result<unknown>> {
    if (!isOpName(op)) return fail('unknown_operation', `"${op}" is not an operation of Sift`);
    const parsed = operations[op].args.safeParse(args ?? {});
    if (!parsed.success) return fail('invalid_argument', `${op}: ${formatZodError(parsed.error)}`);
    try {
      const run = handlers[op] as (a: unknown) => Promise<OpResult<OpName>>;
      return ok(await run(parsed.data));
    } catch (err) {
      if (err instanceof SiftError) return fail(err.code, err.message);
      console.error(`[sift] ${op} failed:`, err);
      return fail('internal', `${op} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  return {
    dataDir: config.dataDir,
    handlers,
    invoke,
    onEvent: (listener) => ctx.events.onAny(listener),
    close() {
      ctx.kbFiles.closeAll();
      appDb.close();
    },
  };
}
