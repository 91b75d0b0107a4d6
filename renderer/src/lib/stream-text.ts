/**
 * Helpers for streamed answers: batching tokens so the UI updates once per frame rather than once
 * per token, and joining a turn's snapshot (from `conversations.get`) with tokens that arrived around it.
 */

/**
 * Collects text per key and hands it over at most once per animation frame (or after `maxWaitMs`
 * when frames do not run, as in a hidden tab). `flush` hands everything over at once.
 */
export class TokenBatcher {
  private pending = new Map<string, string>();
  private scheduled = false;

  /**
   * @param deliver receives all text gathered since the last delivery, per key.
   * @param maxWaitMs longest a token waits when no frame comes. Default 100 (range 16–1000).
   */
  constructor(
    private readonly deliver: (batch: Map<string, string>) => void,
    private readonly maxWaitMs = 100,
  ) {}

  /** Queue text for `key`. */
  add(key: string, text: string): void {
    this.pending.set(key, (this.pending.get(key) ?? '') + text);
    if (this.scheduled) return;
    this.scheduled = true;
    const run = (): void => this.flush();
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    setTimeout(run, this.maxWaitMs);
  }

  /** Deliver what is queued now (before a turn's end is applied, so no token lands after it). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.deliver(batch);
  }
}

/**
 * The answer so far, from a snapshot `known` taken by the core and `heard`, the tokens this window
 * received for the turn while it did not know it yet (they may overlap the snapshot's end). The longest
 * start of `heard` that ends the snapshot is counted once.
 */
export function joinSnapshot(known: string, heard: string): string {
  if (!heard) return known;
  if (heard.startsWith(known)) return heard;
  for (let k = Math.min(heard.length, known.length); k > 0; k--) {
    if (known.endsWith(heard.slice(0, k))) return known + heard.slice(k);
  }
  return known + heard;
}
