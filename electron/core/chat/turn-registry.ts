/**
 * The chat turns in progress: which conversation and knowledge base each belongs to, so one can be cancelled by id,
 * every turn of a conversation or knowledge base about to be deleted can be stopped first, and shutdown can wait for
 * all of them. A turn that throws is logged here and never becomes an unhandled rejection.
 */
import { SiftError } from '../../../shared/errors';

/** Whose a turn is. */
export interface TurnOwner {
  conversationId: string;
  /** The conversation's knowledge base. */
  kbId: string;
}

interface RunningTurn extends TurnOwner {
  abort: AbortController;
  done: Promise<void>;
}

/** Turns in progress, for cancelling and for a clean shutdown. */
export class TurnRegistry {
  private readonly running = new Map<string, RunningTurn>();

  /**
   * Start a turn; `run` receives its abort signal. Throws SiftError `conflict` when a turn with this id is still
   * running (the first one could no longer be cancelled). Whatever `run` throws is logged, never rethrown.
   */
  start(turnId: string, owner: TurnOwner, run: (signal: AbortSignal) => Promise<unknown>): void {
    this.assertFree(turnId);
    const abort = new AbortController();
    const done = new Promise<unknown>((resolve) => resolve(run(abort.signal)))
      .then(
        () => undefined,
        (err: unknown) => console.error(`[sift] chat turn ${turnId} failed unexpectedly:`, err),
      )
      .finally(() => this.running.delete(turnId));
    this.running.set(turnId, { ...owner, abort, done });
  }

  /** Throws SiftError `conflict` when a turn with this id is running. */
  assertFree(turnId: string): void {
    if (this.running.has(turnId)) {
      const message = `chat.send: a turn with the id ${turnId} is already running; send with a new turnId`;
      throw new SiftError('conflict', message);
    }
  }

  /** The id of the conversation's running turn, or null. */
  runningFor(conversationId: string): string | null {
    for (const [turnId, turn] of this.running) if (turn.conversationId === conversationId) return turnId;
    return null;
  }

  /** Cancel a running turn (`reason` becomes its signal's reason); false when it is not running. */
  cancel(turnId: string, reason?: Error): boolean {
    const turn = this.running.get(turnId);
    turn?.abort.abort(reason);
    return turn !== undefined;
  }

  /** Cancel every turn of a conversation and wait until each has ended. Returns how many there were. */
  async cancelConversation(conversationId: string, reason: Error): Promise<number> {
    return this.cancelWhere((t) => t.conversationId === conversationId, reason);
  }

  /** Cancel every turn of a knowledge base and wait until each has ended. Returns how many there were. */
  async cancelKnowledgeBase(kbId: string, reason: Error): Promise<number> {
    return this.cancelWhere((t) => t.kbId === kbId, reason);
  }

  /** Cancel every turn and wait for each to store what it had. */
  async close(): Promise<void> {
    await this.cancelWhere(() => true);
  }

  private async cancelWhere(match: (turn: RunningTurn) => boolean, reason?: Error): Promise<number> {
    const chosen = [...this.running.values()].filter(match);
    for (const t of chosen) t.abort.abort(reason);
    await Promise.allSettled(chosen.map((t) => t.done));
    return chosen.length;
  }
}
