/**
 * A model that failed to load, remembered so the next search does not wait on the network again before a retry is
 * due: the failure itself, the backoff that doubles per failure, and its file in the models folder (each CLI command
 * is a new process, and must not wait on the network either). Shared by the embedding model and the reranker.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One configuration's last failed load. */
export interface LoadFailure {
  /** Which configuration failed (e.g. its JSON); a different one is not held back by this failure. */
  key: string;
  /** Why, in words, as returned to callers meanwhile. */
  reason: string;
  /** When, in ms since 1970. */
  failedAt: number;
  /** Failed loads in a row (1 after the first). */
  failures: number;
}

/** How long to wait after failed loads before trying again. */
export interface BackoffOptions {
  /** Wait after the first failed load before trying again, in ms; doubles per failure. Default 60,000 (≥ 0). */
  retryAfterMs?: number;
  /** The longest wait between tries, in ms. Default 3,600,000 (one hour). */
  maxRetryAfterMs?: number;
}

/** The wait after `failures` failed loads in a row, in ms: the first wait, doubled per further failure, capped. */
export function backoffMs(failures: number, options: BackoffOptions = {}): number {
  const first = options.retryAfterMs ?? 60_000;
  return Math.min(first * 2 ** Math.max(0, failures - 1), options.maxRetryAfterMs ?? 3_600_000);
}

/** True when `failure` is still within its backoff at time `now`: give its reason without trying again. */
export function stillBackingOff(failure: LoadFailure, now: number, options: BackoffOptions = {}): boolean {
  return now < failure.failedAt + backoffMs(failure.failures, options);
}

/** The failure of configuration `key` saved in `file`, or null when there is none (or it cannot be read). */
export function readLoadFailure(file: string, key: string): LoadFailure | null {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LoadFailure>;
    const valid =
      typeof saved.reason === 'string' && typeof saved.failedAt === 'number' && typeof saved.failures === 'number';
    return valid && saved.key === key ? (saved as LoadFailure) : null;
  } catch {
    return null; // no file, or one we cannot read: nothing remembered
  }
}

/** Save `failure` in `file` (owner-only); a file that cannot be written only means it is remembered in memory. */
export function writeLoadFailure(file: string, failure: LoadFailure): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(failure), { mode: 0o600 });
  } catch {
    // Not fatal: the failure is then remembered for this process only.
  }
}

/** Forget the failure saved in `file`. */
export function forgetLoadFailure(file: string): void {
  fs.rmSync(file, { force: true });
}
