/**
 * Version-aware ranking, as pure functions: the status of a page among the versions of its document
 * (current, superseded, expired, undated), the versions or dates a query names ("policy v1", "2023 年的规定",
 * "rules in force on 2023-06-01"), and the reordering search applies after fusion: where versions of one
 * document both match, the one the query names comes first, else the current one; nothing is dropped.
 */
import type { VersionStatus } from '../../../shared/models';

/** What status and ranking need of one version of a document. */
export interface VersionMember {
  pageId: number;
  path: string;
  number: string | null;
  year: number | null;
  effective: string | null;
  expires: string | null;
  /** The page names a version, a day or a link (false: it only shares a name with versions that do). */
  hasFacts: boolean;
  fileKey: string;
  titleNorm: string;
  supersedes: string[];
  supersededBy: string[];
}

/** Compare version numbers part by part: `1.10` > `1.9`, `2` = `2.0`. */
export function compareNumbers(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** True when `a` is a later version than `b` by what both say: effective days, else numbers, else years. */
export function isNewer(a: VersionMember, b: VersionMember): boolean {
  if (a.effective && b.effective) return a.effective > b.effective;
  if (a.number && b.number) return compareNumbers(a.number, b.number) > 0;
  if (a.year && b.year) return a.year > b.year;
  return false;
}

const names = (m: VersionMember, targets: string[]) => targets.includes(m.fileKey) || targets.includes(m.titleNorm);
const inForce = (m: VersionMember, today: string) => m.effective === null || m.effective <= today;

/**
 * The status of `page` among `members` (the other versions of its document; `page` itself may be among
 * them) on `today` (`YYYY-MM-DD`), and the path of the version that replaces it when there is one.
 * Expired beats superseded (it is the page's own word). A version not yet in force replaces nothing.
 */
export function versionStatus(
  page: VersionMember,
  members: VersionMember[],
  today: string,
): { status: VersionStatus; supersededBy: string | null } {
  const others = members.filter((m) => m.pageId !== page.pageId && inForce(m, today));
  const newest = (list: VersionMember[]) =>
    list.reduce<VersionMember | null>((best, m) => (best && !isNewer(m, best) ? best : m), null);
  const explicit = others.filter((m) => names(page, m.supersedes) || names(m, page.supersededBy));
  const implicit = page.hasFacts ? others.filter((m) => m.hasFacts && isNewer(m, page)) : [];
  const replacer = newest(explicit) ?? newest(implicit);
  const supersededBy = replacer?.path ?? null;
  if (page.expires !== null && page.expires < today) return { status: 'expired', supersededBy };
  if (replacer || page.supersededBy.length > 0) return { status: 'superseded', supersededBy };
  return { status: page.hasFacts ? 'current' : 'undated', supersededBy: null };
}

/** Versions, years and days a query names. */
export interface VersionMention {
  numbers: string[];
  years: number[];
  days: string[];
}

const pad = (n: string) => n.padStart(2, '0');

/**
 * The versions (`v1`, `v1.3`, `version 2`, `第2版`, `版本 2`), years (`2023`, `2023 年`, `2023版`) and days
 * (`2023-06-01`, `2023年6月1日`) a query names. `v1/chat` is an API path, not a version.
 */
export function versionMentions(query: string): VersionMention {
  const q = query.normalize('NFKC');
  const numbers = new Set<string>();
  const years = new Set<number>();
  const days = new Set<string>();
  const versionWord = /(?<![\p{L}\p{N}])(?:v|version\s*|版本\s*)(\d+(?:\.\d+)*)(?![\p{L}\p{N}/]|\.\p{N})/giu;
  for (const m of q.matchAll(versionWord)) numbers.add(m[1]!);
  for (const m of q.matchAll(/第\s*(\d+)\s*版/gu)) numbers.add(m[1]!);
  for (const m of q.matchAll(/(?<!\d)((?:19|20)\d{2})(?!\d)/gu)) years.add(Number(m[1]));
  for (const m of q.matchAll(/(?<!\d)((?:19|20)\d{2})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)/gu)) {
    days.add(`${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}`);
  }
  return { numbers: [...numbers], years: [...years], days: [...days] };
}

/** True when a query names no version, year or day. */
export function mentionsNothing(m: VersionMention): boolean {
  return m.numbers.length === 0 && m.years.length === 0 && m.days.length === 0;
}

/** What ranking needs of a page's version. */
export interface RankedVersion {
  /** Pages with the same group are versions of one document. */
  group: number;
  status: VersionStatus;
  number: string | null;
  year: number | null;
  effective: string | null;
  expires: string | null;
}

const inForceOn = (v: RankedVersion, from: string, to: string) =>
  v.effective !== null && v.effective <= to && (v.expires === null || v.expires >= from);

/** How well a version fits what the query names: 2 named outright, 1 in force then, 0 otherwise. */
export function mentionScore(v: RankedVersion, m: VersionMention): number {
  if (v.number && m.numbers.some((n) => compareNumbers(n, v.number!) === 0)) return 2;
  if (v.year && m.years.includes(v.year)) return 2;
  if (m.days.some((d) => inForceOn(v, d, d))) return 2;
  if (m.years.some((y) => inForceOn(v, `${y}-01-01`, `${y}-12-31`))) return 1;
  return 0;
}

/**
 * A version matches the query when it holds at least this share of what the best-matching version of
 * its document holds (see preferVersions' `matchOf`): one holding a third of the query's words against
 * another's all does not (RFC 2068 for "private address space"), two editions that both answer do.
 */
export const MATCH_SHARE = 0.5;

/** Status order for ranking: the current version first, a page that says nothing next, old ones last. */
const STATUS_ORDER: Record<VersionStatus, number> = { current: 0, undated: 1, superseded: 2, expired: 2 };

/**
 * Reorder ranked `items` so that among the versions of one document the preferred one comes first:
 * the one the query names (see {@link mentionScore}), then those that match the query (`matchOf`, see
 * MATCH_SHARE; default all do), then by status, then as ranked. A version that does not match the query
 * never takes the place of one that does: the current version comes first among those that answer. Only the places the versions of a document already hold are
 * shuffled among them; every other item keeps its place, and nothing is dropped.
 */
export function preferVersions<T>(
  items: T[],
  versionOf: (item: T) => RankedVersion | undefined,
  mention: VersionMention,
  matchOf: (item: T) => number = () => 0,
): T[] {
  const slots = new Map<number, number[]>();
  items.forEach((item, i) => {
    const v = versionOf(item);
    if (!v) return;
    const list = slots.get(v.group);
    if (list) list.push(i);
    else slots.set(v.group, [i]);
  });
  const out = items.slice();
  for (const places of slots.values()) {
    if (places.length < 2) continue;
    const best = Math.max(...places.map((i) => matchOf(items[i]!)));
    const matches = (i: number) => (matchOf(items[i]!) >= MATCH_SHARE * best ? 1 : 0);
    const key = (i: number) => {
      const v = versionOf(items[i]!)!;
      return [-mentionScore(v, mention), -matches(i), STATUS_ORDER[v.status], i];
    };
    const order = places.slice().sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]! || ka[3]! - kb[3]!;
    });
    places.forEach((place, k) => (out[place] = items[order[k]!]!));
  }
  return out;
}
