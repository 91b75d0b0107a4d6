/**
 * The engine's one facade. `createSift({ dataDir })` opens the app database and returns the
 * handler table plus `invoke`, which validates arguments against the contract and turns every
 * failure into the one error shape. Hosts call `invoke` and forward events; they hold no logic.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations, isOpName, type Handlers, type OpName, type OpResult } from '../../shared/contract';
import type { DigestStatus, IngestStatus, ModelProgress } from '../../shared/models';
import { SiftError, fail, ok, type Result } from '../../shared/errors';
import { VERSION } from './base/version';
import type { CoreContext } from './store/context';
import { EmbeddingService, type EmbeddingConfig } from './embed/embedding';
import { LiveConfig, type ChatOverrides } from './live-config';
import { SettingsStore } from './config/settings';
import type { Settings } from '../../shared/settings';
import { EventBus } from './base/events';
import { ingestHandlers } from './ingest/handlers';
import { searchHandlers } from './search/handlers';
import { askHandlers } from './chat/ask';
import { chatHandlers, TurnRegistry } from './chat/handlers';
import { TurnDiscarded } from './chat/turn';
import { exportHandlers } from './export/handlers';
import { glossaryHandlers } from './glossary/handlers';
import { digestHandlers } from './digests/handlers';
import { DigestRunner, type DigestRunnerOptions } from './digests/runner';
import { providerHandlers } from './llm/provider-handlers';
import type { SecretStore } from './config/secrets';
import { chromiumPdfRenderer, type PdfRenderer } from './export/pdf';
import type { SearchOptions } from './search/search';
import { modelCompleter, type Completer } from './search/enhance/completer';
import { defaultRerankers } from './search/enhance/run';
import { createCrossEncoderReranker, crossEncoderOptionsFrom, type CrossEncoderReranker } from './search/rerank/cross-encoder';
import type { RerankKind } from './search/rerank/types';
import { VectorIndexBuilder } from './search/index-builder';
import { Indexer, type IndexerOptions } from './ingest/indexer';
import { refreshPageFeatures } from './ingest/page-features';
import { PAGE_FEATURES, RANKING_FEATURES } from './page-features';
import { FolderWatcher } from './ingest/watcher';
import { KbFiles } from './store/kb-files';
import { folderHandlers, listFolders } from './kb/folders';
import { knowledgeBaseHandlers, resolveKb } from './kb/knowledge-bases';
import { dataPaths } from './base/paths';
import { appMigrations } from './store/migrations/app';
import { kbMigrations } from './store/migrations/kb';
import { openDatabase } from './store/open';
import { tightenDataDir } from './store/private';
import { formatZodError } from './base/validate';

/** Options of {@link createSift}. */
export interface SiftConfig {
  /** Folder holding `sift.sqlite`, `kbs/`, `models/` and `logs/`. Created when missing. */
  dataDir: string;
  /** The embedding model, overriding the setting (CLI environment, tests). Default: the setting. */
  embedding?: EmbeddingConfig;
  /** Folder models are looked up in and downloaded to. Default `<dataDir>/models`. */
  modelsDir?: string;
  /** Only read `modelsDir`: downloads go to `<dataDir>/models` (a throw-away data folder). Default false. */
  modelsReadOnly?: boolean;
  /** Defaults for settings the person has not changed (e.g. the Ollama host from OLLAMA_HOST). */
  settingsDefaults?: Partial<Settings>;
  /** Indexing tunables (file-size cap, concurrency, batch size). */
  indexer?: IndexerOptions;
  /** Chat overrides that win over the settings (CLI flags, tests): host, model, budgets, timeouts. */
  chat?: ChatOverrides;
  /** How PDFs are printed. Default: the machine's Chromium, headless (the Electron host passes printToPDF). */
  renderPdf?: PdfRenderer;
  /** Search tunables (stage sizes, MMR λ, exact-search threshold). */
  search?: SearchOptions;
  /** Index every knowledge base at start and whenever its folders change. Default false (the CLI indexes on request). */
  autoIndex?: boolean;
  /** Watch folders for changes (long-running hosts: the app, `sift serve`). Default false. */
  watch?: boolean;
  /** Page-digest tunables (time limit per digest, tokens). */
  digests?: DigestRunnerOptions;
  /** Where providers' API keys are kept encrypted (the desktop app passes one over Electron safeStorage). Default:
   *  none, so keys come from an environment variable or a key file. */
  secrets?: SecretStore;
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
  /** Index a knowledge base now and resolve with the final status (the CLI's `sift ingest`). */
  ingest(kbRef: string): Promise<IngestStatus>;
  /** Make a knowledge base's page digests now and resolve with the final status (the CLI's `sift digest`). */
  digest(kbRef: string): Promise<DigestStatus>;
  /** Stop indexing and watching, free the model, close every database. The instance must not be used afterwards. */
  close(): Promise<void>;
}

/** Start the engine on a data folder. */
export function createSift(config: SiftConfig): Sift {
  const paths = dataPaths(config.dataDir);
  tightenDataDir(config.dataDir);
  const appDb = openDatabase(paths.appDb, appMigrations, 'the app database');
  // A knowledge base made before a page feature, or by another version of it, gets it from its stored pages when opened.
  const kbFiles = new KbFiles(config.dataDir, { onOpen: (db) => refreshPageFeatures(db, PAGE_FEATURES) });
  const ctx: CoreContext = { dataDir: config.dataDir, appDb, events: new EventBus(), kbFiles };

  const settings = new SettingsStore(appDb, ctx.events, config.settingsDefaults);
  const liveOverrides = { chat: config.chat, embedding: config.embedding, maxFileBytes: config.indexer?.maxFileBytes };
  const live = new LiveConfig(settings, liveOverrides, config.secrets);
  const downloadDir = config.modelsReadOnly ? paths.models : undefined;
  const models = { dir: config.modelsDir ?? paths.models, downloadDir };
  const embedding = new EmbeddingService(() => live.embedding(), models, ctx.events);
  const ingestWorker = () => new URL('./ingest-worker-main.ts', import.meta.url);
  const indexer = new Indexer(ctx, () => embedding.get(), ingestWorker, {
    ...config.indexer,
    maxFileBytesNow: () => live.maxFileBytes(),
    ocrNow: () => settings.get().ocr ?? true,
  });
  const vectorIndexes = new VectorIndexBuilder();
  const searchOptions = { buildIndex: vectorIndexes.build, rankingFeatures: RANKING_FEATURES, ...config.search };
  const watcher = config.watch ? new FolderWatcher(indexer) : null;
  const turns = new TurnRegistry();
  // With autoIndex (the app), a digest run that wrote pages starts an indexing run, which embeds their chunks.
  const digests = new DigestRunner(ctx, {
    llm: (kbId) => live.llm(kbId),
    model: (kbId) => live.chat(kbId).model,
    changed: config.autoIndex ? (kbId) => indexer.start(kbId) : undefined,
  }, config.digests);
  // The cross-encoder reranker, made on first use (its model loads on its first rerank); again when its model changes.
  // The app does not hold a search for a download: reranks keep the fused order, saying so, until the model is there.
  let crossEncoder: CrossEncoderReranker | null = null;
  const crossEncoderNow = (): CrossEncoderReranker => {
    const options = crossEncoderOptionsFrom(settings.get(), models);
    if (crossEncoder && crossEncoder.modelId === options.modelId) return crossEncoder;
    void crossEncoder?.close();
    const onProgress = (p: ModelProgress) => ctx.events.emit('model.progress', p);
    const made = createCrossEncoderReranker({ ...options, onProgress, waitForDownload: !config.autoIndex });
    crossEncoder = made;
    return made;
  };
  const enhance = {
    completer: modelCompleter(() => live.llm(), () => live.chat().model),
    settings: () => live.enhance(),
    reranker: (kind: RerankKind, completer: Completer | null) => (kind === 'cross-encoder' ? crossEncoderNow() : defaultRerankers(kind, completer)),
  };
  const chatDeps = { llm: (kb?: string | null) => live.llm(kb), settings: (kb?: string | null) => live.chat(kb), embedder: embedding, searchOptions, turns, enhance };

  const handlers: Handlers = {
    async 'app.info'() {
      const embeddingOverride = config.embedding?.provider ?? null;
      const schemas = { appSchemaVersion: appMigrations.length, kbSchemaVersion: kbMigrations.length };
      const keyStorage = live.secrets.available;
      return { version: VERSION, dataDir: config.dataDir, ...schemas, embeddingOverride, cliPath: cliPath(), keyStorage };
    },
    // Only the Electron host can show a native dialog; it answers this operation itself.
    async 'app.pickFolder'() {
      return { supported: false, path: null };
    },
    ...knowledgeBaseHandlers(ctx, {
      beforeDelete: (kbId) => stopTurnsOfKb(turns, kbId),
      stopIndexing: async (kbId) => {
        await digests.stop(kbId);
        await watcher?.unwatchKb(kbId);
        await indexer.stop(kbId);
      },
    }),
    ...folderHandlers(ctx),
    ...ingestHandlers(ctx, indexer, PAGE_FEATURES),
    // Asking to index again is also asking to try a model that failed to load again.
    async 'ingest.start'({ kb }) {
      embedding.retry();
      return indexer.start(resolveKb(ctx, kb).id);
    },
    ...searchHandlers(ctx, embedding, searchOptions, enhance),
    ...chatHandlers(ctx, chatDeps),
    ...askHandlers(ctx, chatDeps),
    ...providerHandlers(ctx, live, settings),
    async 'settings.get'() {
      return settings.get();
    },
    async 'settings.set'({ patch }) {
      const before = JSON.stringify(live.embedding());
      const hadProviders = settings.get().providers.map((p) => p.name);
      const next = settings.set(patch);
      // A provider taken off the list takes its stored key with it.
      for (const name of hadProviders) if (!next.providers.some((p) => p.name === name)) live.secrets.delete(name);
      // A new embedding model re-embeds every knowledge base in the background (progress as ingest events).
      if (JSON.stringify(live.embedding()) !== before) {
        embedding.retry();
        for (const kb of listKbIds(appDb)) indexer.start(kb);
      }
      return next;
    },
    ...exportHandlers(ctx, config.renderPdf ?? chromiumPdfRenderer()),
    ...glossaryHandlers(ctx),
    ...digestHandlers(ctx, digests),
  };

  // Keep indexing and watching in step with the knowledge bases and their folders.
  const follow = (kbId: string) => {
    if (config.autoIndex) indexer.start(kbId);
    void watcher?.watchKb(kbId, listFolders(ctx, kbId));
  };
  const stopFollowing = ctx.events.on('kb.changed', ({ kbId, change }) => {
    if (change === 'deleted') {
      indexer.forget(kbId);
      void watcher?.unwatchKb(kbId);
    } else if (change === 'folders') follow(kbId);
  });
  if (config.autoIndex || config.watch) for (const kb of listKbIds(appDb)) follow(kb);
  // With autoIndex, every finished indexing run brings the digests of a knowledge base that has them on up to date.
  const stopDigesting = config.autoIndex
    ? ctx.events.on('ingest.progress', ({ kbId, state, startedAt }) => {
        if (state === 'done' || state === 'error' || state === 'cancelled') digests.indexingEnded(kbId, { state, startedAt });
      })
    : () => undefined;

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
    async ingest(kbRef) {
      embedding.retry();
      return indexer.run(resolveKb(ctx, kbRef).id);
    },
    async digest(kbRef) {
      return digests.run(resolveKb(ctx, kbRef).id);
    },
    async close() {
      stopFollowing();
      stopDigesting();
      await digests.close();
      await crossEncoder?.close();
      await turns.close();
      await watcher?.close();
      await indexer.close();
      await embedding.close();
      await vectorIndexes.close();
      ctx.kbFiles.closeAll();
      appDb.close();
    },
  };
}

/**
 * The `sift` command of this checkout or install (`bin/sift.mjs` beside the sources), or null where there is none
 * (a packaged app bundles the core without it).
 */
function cliPath(): string | null {
  try {
    const bin = fileURLToPath(new URL('../../bin/sift.mjs', import.meta.url));
    return fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

/** A knowledge base being deleted first stops its chat turns, so none writes into a conversation that is gone. */
async function stopTurnsOfKb(turns: TurnRegistry, kbId: string): Promise<void> {
  const why = new TurnDiscarded('The knowledge base was deleted while this answer was being written.');
  await turns.cancelKnowledgeBase(kbId, why);
}

function listKbIds(appDb: import('better-sqlite3').Database): string[] {
  return appDb.prepare(`SELECT id FROM knowledge_bases ORDER BY created_at`).pluck().all() as string[];
}
