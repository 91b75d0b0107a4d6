/**
 * Which of two digest-status snapshots is the more recent. An operation's answer and the event stream travel
 * separately, so the answer to "turn digests on" (taken before the run begins) may arrive after the run's first
 * progress event; keeping the answer would show the run as idle, without its Stop button, until the next event.
 * A later run wins; within one run, the snapshot further along does; of two ends of one run, the one that came last.
 */
import type { DigestStatus } from '../../../shared/models';

export function laterDigest(known: DigestStatus | undefined, next: DigestStatus): DigestStatus {
  if (!known) return next;
  if (known.startedAt !== next.startedAt) return (next.startedAt ?? '') >= (known.startedAt ?? '') ? next : known;
  const stage = (s: DigestStatus) => (s.state === 'idle' ? 0 : s.state === 'running' ? 1 : 2);
  if (stage(known) !== stage(next)) return stage(next) > stage(known) ? next : known;
  // A finished run changes only when the setting does (off removes its digests): the one that came last holds.
  if (next.state !== 'running') return next;
  const along = (s: DigestStatus) => [s.pagesTotal, s.pagesDone, s.generated];
  const [a, b] = [along(known), along(next)];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i]! > a[i]! ? next : known;
  return next;
}
