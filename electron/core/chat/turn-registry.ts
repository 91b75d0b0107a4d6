/**
 * The chat turns in progress: which conversation and knowledge base each belongs to, so one can be cancelled by id,
 * every turn of a conversation or knowledge base about to be deleted can be stopped first, and shutdown can wait for
 * all of them. A turn that throws is logged here and never becomes an unhandled rejection.
 */
import type { RunningTurn as TurnProgress } from '../../../shared/chat-models';
import { SiftError } from '../../../shared/errors';
import { stepOfEvent } from '../../../shared/turn-steps';

/** Abort reason of the turns still running when Sift shuts down: their partial answers are stored as `interrupted`,
 *  not as stopped by a person. */
export class TurnInterrupted extends SiftError {
  constructor() {
    super('cancelled', 'Sift was shutting down while this answer was being written.');
  }
}

/** Whose a turn is. */
export interface TurnOwner {
  conversationId: string;
  /** The conversation's knowledge base. */
  kbId: string;
}

interface RunningTurn extends TurnOwner {
  abort: AbortController;
  done: Promise<void>;
  /** The answer and steps so far, for a client that opens the conversation mid-answer. */
  progress: TurnProgress;
  /** True once its answer (or failure) is stored and sent; it may still be finishing up. */
  answered: boolean;
}

/** Reasoning joins the turn's thinking; answer text it takes back leaves the answer so far. */
function noteThinking(progress: TurnProgress, payload: { text: string; takesBack?: number }): void {
  const back = Math.min(payload.takesBack ?? 0, progress.text.length);
  if (back > 0) progress.text = progress.text.slice(0, progress.text.length - back);
  progress.thinking = (progress.thinking ?? '') + payload.text;
}

/** Turns in progress, for cancelling and for a clean shutdown. */
export class TurnRegistry {
  private readonly running = new Map<string, RunningTurn>();

  /**
   * Start a turn; `run` receives its abort signal. Throws SiftError `conflict` when a turn with this id is still
   * running (the first one could no longer be cancelled). Whatever `run` throws is logged, never rethrown.
   */
  start(
    turnId: string,
    owner: TurnOwner & { userMessageId?: string },
    run: (signal: AbortSignal) => Promise<unknown>,
  ): void {
    this.assertFree(turnId);
    const abort = new AbortController();
    const progress: TurnProgress = { turnId, userMessageId: owner.userMessageId ?? '', text: '', steps: [] };
    const { conversationId, kbId } = owner;
    const turn: RunningTurn = { conversationId, kbId, abort, progress, answered: false, done: Promise.resolve() };
    // Registered before `run` starts: a turn may emit its first events synchronously.
    this.running.set(turnId, turn);
    turn.done = new Promise<unknown>((resolve) => resolve(run(abort.signal)))
      .then(
        () => undefined,
        (err: unknown) => console.error(`[sift] chat turn ${turnId} failed unexpectedly:`, err),
      )
      .finally(() => this.running.delete(turnId));
  }

  /**
   * Note one of a turn's streamed events (every event goes here; those of turns not running are ignored),
   * keeping the turn's answer and steps so far.
   */
  note(event: string, payload: unknown): void {
    const turnId = (payload as { turnId?: unknown } | null)?.turnId;
    const turn = typeof turnId === 'string' ? this.running.get(turnId) : undefined;
    if (!turn) return;
    if (event === 'answer.done' || event === 'answer.failed') turn.answered = true;
    const { progress } = turn;
    const step = stepOfEvent(event, payload, progress.steps.some((s) => s.kind === 'answering'));
    if (step) progress.steps.push(step);
    if (event === 'answer.token') progress.text += (payload as { text: string }).text;
    if (event === 'answer.thinking') noteThinking(progress, payload as { text: string; takesBack?: number });
  }

  /**
   * The turn still answering in a conversation, with its answer and steps so far (a copy), or null. A turn
   * whose answer is already stored no longer counts, though it may still be finishing up.
   */
  progressOf(conversationId: string): TurnProgress | null {
    for (const turn of this.running.values()) {
      if (turn.conversationId !== conversationId || turn.answered) continue;
      return { ...turn.progress, steps: [...turn.progress.steps] };
    }
    return null;
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

  /** Cancel every turn (as {@link TurnInterrupted}) and wait for each to store what it had. */
  async close(): Promise<void> {
    await this.cancelWhere(() => true, new TurnInterrupted());
  }

  private async cancelWhere(match: (turn: RunningTurn) => boolean, reason?: Error): Promise<number> {
    const chosen = [...this.running.values()].filter(match);
    for (const t of chosen) t.abort.abort(reason);
    await Promise.allSettled(chosen.map((t) => t.done));
    return chosen.length;
  }
}
