/**
 * Scheduling digest runs: at most one per knowledge base at a time (a request during a run queues exactly
 * one more), progress as `digests.progress` events throttled to a few per second, a cancel that stops
 * after the page being written, and a clear `skipped` status when no model server or model is there.
 */
import type { DigestStatus } from '../../../shared/models';
import { SiftError } from '../../../shared/errors';
import { now, type CoreContext } from '../store/context';
import type { LlmClient } from '../llm/types';
import { DIGEST_DEFAULTS, runDigests, type DigestOptions } from './run';
import { digestCount, removeAllDigests } from './store';

/** Options of the digest runner. */
export interface DigestRunnerOptions extends Partial<DigestOptions> {
  /** Least time between two progress events of one knowledge base, ms. Default 150 (0–2000). */
  progressIntervalMs?: number;
}

/** What the runner reads at the moment a run starts. */
export interface DigestRunnerDeps {
  /** The model server client in force for this knowledge base (its own provider, else the default). */
  llm(kbId: string): LlmClient;
  /** The chat model the person chose for it, or undefined for the first installed one. */
  model(kbId: string): string | undefined;
  /** Called after a run that wrote or removed digests (e.g. to embed their chunks). Default: nothing. */
  changed?(kbId: string): void;
}

interface KbDigests {
  status: DigestStatus;
  running: Promise<void> | null;
  again: boolean;
  cancel: AbortController;
  lastEmit: number;
  /** The indexing run its own digests started has not finished yet (its end must not start digests again). */
  ownIndexing: boolean;
  /** When the person last cancelled a run: an indexing run that started before it does not restart digests. */
  cancelledAt: string | null;
}

/** Runs and tracks digest runs for every knowledge base of one core. */
export class DigestRunner {
  private readonly kbs = new Map<string, KbDigests>();
  private readonly closed = new AbortController();
  private readonly options: DigestOptions & { progressIntervalMs: number };

  constructor(
    private readonly ctx: CoreContext,
    private readonly deps: DigestRunnerDeps,
    options: DigestRunnerOptions = {},
  ) {
    this.options = { ...DIGEST_DEFAULTS, progressIntervalMs: 150, ...options };
  }

  /** True when the knowledge base has digests turned on. */
  enabled(kbId: string): boolean {
    return this.ctx.appDb.prepare(`SELECT digests FROM knowledge_bases WHERE id = ?`).pluck().get(kbId) === 1;
  }

  /**
   * Turn digests on or off. On starts a run. Off stops a running one and removes every digest page: with no
   * runs to keep them current, they would soon say what the pages no longer say.
   */
  async setEnabled(kbId: string, enabled: boolean): Promise<DigestStatus> {
    this.ctx.appDb.prepare(`UPDATE knowledge_bases SET digests = ? WHERE id = ?`).run(enabled ? 1 : 0, kbId);
    this.ctx.events.emit('kb.changed', { kbId, change: 'settings' });
    if (enabled) return this.start(kbId);
    const kb = this.kb(kbId);
    this.cancel(kbId);
    await kb.running?.catch(() => undefined);
    kb.status = { ...kb.status, removed: removeAllDigests(this.ctx.kbFiles.get(kbId)), generated: 0 };
    this.emit(kbId, kb, true);
    return this.status(kbId);
  }

  /** The status now: the last run's counters, the setting and what the store holds (of a deleted one: nothing). */
  status(kbId: string): DigestStatus {
    const kb = this.kb(kbId);
    const exists = this.ctx.appDb.prepare(`SELECT 1 FROM knowledge_bases WHERE id = ?`).get(kbId) !== undefined;
    kb.status.enabled = exists && this.enabled(kbId);
    // A deleted knowledge base's file is not opened again (that would create it anew).
    kb.status.stored = exists ? digestCount(this.ctx.kbFiles.get(kbId)) : 0;
    return { ...kb.status, problems: [...kb.status.problems] };
  }

  /** Start a run in the background (or queue one after the current run); returns the status at once. */
  start(kbId: string): DigestStatus {
    const kb = this.kb(kbId);
    kb.again = true;
    kb.running ??= this.loop(kbId, kb);
    return this.status(kbId);
  }

  /** Run now, or join the run in progress, and resolve with the final status: `sift digest`. */
  async run(kbId: string): Promise<DigestStatus> {
    const kb = this.kb(kbId);
    if (!kb.running) this.start(kbId);
    while (kb.running) await kb.running;
    return this.status(kbId);
  }

  /**
   * An indexing run of the knowledge base ended (`autoIndex`): bring its digests up to date, unless they are off,
   * the run only indexed the digests this runner wrote, or it began before the person cancelled: Cancel holds
   * until something new is indexed.
   */
  indexingEnded(kbId: string, run: { state: string; startedAt: string | null }): void {
    const kb = this.kbs.get(kbId);
    const own = kb?.ownIndexing ?? false;
    if (kb) kb.ownIndexing = false;
    if (own || run.state !== 'done' || !this.enabled(kbId)) return;
    const { startedAt } = run;
    if (kb?.cancelledAt != null && (startedAt === null || startedAt <= kb.cancelledAt)) return;
    this.start(kbId);
  }

  /** Cancel the running digest run (and the one queued); false when none was running. */
  cancel(kbId: string): boolean {
    const kb = this.kbs.get(kbId);
    if (!kb?.running) return false;
    kb.cancelledAt = now();
    kb.again = false;
    kb.cancel.abort();
    return true;
  }

  /** Cancel a knowledge base's run and wait until it lets go of its file (before the file is deleted). */
  async stop(kbId: string): Promise<void> {
    const kb = this.kbs.get(kbId);
    if (!kb) return;
    this.cancel(kbId);
    await kb.running?.catch(() => undefined);
    this.kbs.delete(kbId);
  }

  /** Cancel every run and wait for them. */
  async close(): Promise<void> {
    this.closed.abort();
    await Promise.allSettled([...this.kbs.values()].map((kb) => kb.running));
  }

  private kb(kbId: string): KbDigests {
    let kb = this.kbs.get(kbId);
    if (!kb) {
      const status: DigestStatus = { ...blankStatus(kbId), state: 'idle' };
      kb = { status, running: null, again: false, cancel: new AbortController(), lastEmit: 0, ownIndexing: false, cancelledAt: null };
      this.kbs.set(kbId, kb);
    }
    return kb;
  }

  private async loop(kbId: string, kb: KbDigests): Promise<void> {
    await Promise.resolve(); // so `running` is assigned before this can finish
    try {
      while (kb.again && !this.closed.signal.aborted) {
        kb.again = false;
        kb.cancel = new AbortController();
        await this.once(kbId, kb);
      }
    } finally {
      kb.running = null;
    }
  }

  private async once(kbId: string, kb: KbDigests): Promise<void> {
    const s: DigestStatus = { ...blankStatus(kbId), state: 'running', startedAt: now() };
    kb.status = s;
    const finish = (state: DigestStatus['state'], message: string | null = null) => {
      Object.assign(s, { state, message, currentPage: null, finishedAt: now() });
      this.emit(kbId, kb, true);
    };
    if (!this.enabled(kbId)) return finish('off', OFF);
    this.emit(kbId, kb, true);
    const llm = this.deps.llm(kbId);
    const picked = await pickModel(llm, this.deps.model(kbId));
    if ('code' in picked) {
      s.code = picked.code;
      return finish('skipped', picked.message);
    }
    s.model = picked.model;
    const signal = AbortSignal.any([kb.cancel.signal, this.closed.signal]);
    const db = this.ctx.kbFiles.get(kbId);
    const options = { timeoutMs: this.options.timeoutMs, maxTokens: this.options.maxTokens };
    try {
      const progress = (force?: boolean) => this.emit(kbId, kb, force);
      await runDigests({ db, llm, model: picked.model, status: s, progress, signal, options });
      finish('done');
    } catch (err) {
      if (err instanceof SiftError && err.code === 'cancelled') finish('cancelled', CANCELLED);
      else {
        console.error(`[sift] digests of ${kbId} failed:`, err);
        finish('error', err instanceof Error ? err.message : String(err));
      }
    }
    if ((s.generated > 0 || s.removed > 0) && this.deps.changed) {
      kb.ownIndexing = true;
      this.deps.changed(kbId);
    }
  }

  private emit(kbId: string, kb: KbDigests, force = false): void {
    const t = Date.now();
    if (!force && t - kb.lastEmit < this.options.progressIntervalMs) return;
    kb.lastEmit = t;
    this.ctx.events.emit('digests.progress', this.status(kbId));
  }
}

const OFF = 'Page digests are off for this knowledge base; turn them on in its settings.';
const CANCELLED = 'Cancelled; the digests made so far are kept.';
const NO_MODEL = 'Ollama has no model installed, so no digests were made. Pull one: `ollama pull qwen3:4b`.';

function blankStatus(kbId: string): DigestStatus {
  return {
    kbId, enabled: false, state: 'idle', code: null, pagesTotal: 0, pagesDone: 0, generated: 0, removed: 0,
    unchanged: 0, problems: [], stored: 0, currentPage: null, model: null, message: null, startedAt: null,
    finishedAt: null,
  };
}

type Picked = { model: string } | { code: NonNullable<DigestStatus['code']>; message: string };

/** The model digests are written with: the chosen one when installed, else the first installed; or why none. */
async function pickModel(llm: LlmClient, wanted: string | undefined): Promise<Picked> {
  const ping = await llm.ping();
  if (!ping.ok) {
    const message = `No model server is running at ${llm.host}, so no digests were made. `
      + 'Start Ollama (`ollama serve`) and run them again.';
    return { code: 'llm_unavailable', message };
  }
  const models = (await llm.listModels().catch(() => [])).map((m) => m.name);
  if (wanted && !models.includes(wanted)) {
    return { code: 'no_model', message: `The model ${wanted} is not installed. Run \`ollama pull ${wanted}\`.` };
  }
  const model = wanted ?? models[0];
  if (!model) return { code: 'no_model', message: NO_MODEL };
  return { model };
}
