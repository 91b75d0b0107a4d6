/**
 * Which of two status snapshots of a run is the more recent. An operation's answer and the event stream travel
 * separately, so an answer may arrive after a newer event: the answer to "turn digests on" is taken before the run
 * begins, and keeping it would show the run as idle, without its Stop button, until the next event.
 */
import type { DigestStatus, IngestStatus } from '../../../shared/models';

/**
 * A later run wins (by `startedAt`); within one run, the snapshot whose `along` figures are further on (compared in
 * order); on a tie, the one that came last.
 */
export function laterSnapshot<T extends { startedAt: string | null }>(known: T | undefined, next: T, along: (s: T) => number[]): T {
  if (!known) return next;
  if (known.startedAt !== next.startedAt) return (next.startedAt ?? '') >= (known.startedAt ?? '') ? next : known;
  const [a, b] = [along(known), along(next)];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return b[i]! > a[i]! ? next : known;
  return next;
}

const INGEST_STATES: IngestStatus['state'][] = ['idle', 'scanning', 'indexing', 'embedding', 'done', 'error'];

/** The more recent of two indexing snapshots: state, then files done, then chunks embedded. */
export function laterIngest(known: IngestStatus | undefined, next: IngestStatus): IngestStatus {
  return laterSnapshot(known, next, (s) => [INGEST_STATES.indexOf(s.state), s.filesDone, s.chunksEmbedded]);
}

/**
 * The more recent of two digest snapshots: idle, then running (pages counted, done, digests written), then finished.
 * Two ends of one run tie, so the one that came last holds: a finished run changes only when the setting does (off
 * removes its digests).
 */
export function laterDigest(known: DigestStatus | undefined, next: DigestStatus): DigestStatus {
  return laterSnapshot(known, next, (s) =>
    s.state === 'running' ? [1, s.pagesTotal, s.pagesDone, s.generated] : [s.state === 'idle' ? 0 : 2]);
}
