/**
 * One request to a model server, as both clients (Ollama, OpenAI-compatible) run it: its abort switch, its time
 * limits, and why it was stopped. Racing every wait against `stopped` guarantees the caller is released when a limit
 * passes, whatever the socket does. The clients extend it with what their wire needs and how to explain a failure.
 */
import { SiftError } from '../../../shared/errors';

export class RequestLimits {
  /** The request's abort switch, handed to the wire. */
  readonly controller = new AbortController();
  /** Why we stopped the request (a time limit, the caller's cancel); null while it runs. */
  stopReason: SiftError | null = null;
  private readonly stopped: Promise<never>;
  private rejectStopped: (error: SiftError) => void = () => {};
  private readonly onUserAbort = () => this.stop(new SiftError('cancelled', this.cancelMessage));

  constructor(
    private readonly cancelMessage: string,
    private readonly userSignal?: AbortSignal,
  ) {
    this.stopped = new Promise<never>((_, reject) => (this.rejectStopped = reject));
    this.stopped.catch(() => {}); // observed through `within`; never an unhandled rejection
    if (userSignal?.aborted) this.onUserAbort();
    else userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
  }

  /** Wait for `work`, but no longer than `ms`; on expiry the request is aborted and a 'timeout' error thrown. */
  async within<T>(ms: number, limit: string, work: Promise<T>): Promise<T> {
    work.catch(() => {}); // if we stop first, its later rejection is expected
    if (this.stopReason) throw this.stopReason;
    const timer = setTimeout(() => this.stop(new SiftError('timeout', limit)), ms);
    try {
      return await Promise.race([work, this.stopped]);
    } finally {
      clearTimeout(timer);
    }
  }

  protected stop(reason: SiftError): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.rejectStopped(reason);
    this.controller.abort(reason);
  }

  /** Release the connection (if still open) and the listener on the caller's signal. */
  finish(): void {
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
    this.controller.abort();
  }
}

/** A client's time-limit option: `fallback` when unset, else a positive number of ms (`client` names it in the error). */
export function positiveMs(value: number | undefined, fallback: number, name: string, client: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new SiftError('invalid_argument', `${client} client option ${name} must be a positive number of ms, got ${value}.`);
  }
  return value;
}
