/**
 * Version facts of a document, read at ingest: from front matter (`version`, `effective`, `expires`,
 * `supersedes`, `superseded_by`) and, where the front matter names no version, from the file name
 * (`policy_v2`, `guide-v1.3`, `report-2024`, `差旅政策（2024版）`, `规定2023版`, `Handbook (2024 edition)`).
 * Also the keys that group the versions of one document: the file name and the title with the
 * version part taken off. No database access; pure functions with table-driven tests.
 */
import path from 'node:path';

/** What a page says about its own version. Every field may be missing. */
export interface VersionFacts {
  /** The version as written, for people: `v2`, `1.3`, `2024版`, `2024 edition`; null when none. */
  label: string | null;
  /** A version number such as `2` or `1.3` (no leading `v`), comparable part by part; null when none. */
  number: string | null;
  /** The year the version is named by (`2024版`, `-2024`) or, failing that, the year it takes effect. */
  year: number | null;
  /** First day in force, `YYYY-MM-DD`. */
  effective: string | null;
  /** Day it stops being in force, `YYYY-MM-DD` (the last day of a month or year given alone). */
  expires: string | null;
  /** Documents this one replaces / that replace it: link keys (see {@link linkKey}). */
  supersedes: string[];
  supersededBy: string[];
  /** The front matter says something of the version (a version, a day, a link), not only the file name. */
  declared: boolean;
  /** The version comes from a file name that marks it as one (`_v2`, `（2024版）`), not a bare year (`-1918`). */
  marked: boolean;
}

/** The keys one page is found and grouped by (see {@link versionKeys}). */
export interface VersionKeys {
  /** File name without extension and version part, normalised; '' when nothing is left. */
  nameKey: string;
  /** Title without its version part, normalised; '' when nothing is left. */
  titleKey: string;
  /** File name without extension, normalised (what a `supersedes` link names). */
  fileKey: string;
  /** Title normalised (what a `supersedes` link may name instead). */
  titleNorm: string;
}

/** Facts and keys together: what ingest stores per page. */
export interface PageVersionRecord extends VersionFacts, VersionKeys {}

/** NFKC (full-width brackets and digits become ASCII), case-folded, separators collapsed to one space. */
export function normaliseName(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s_\-.·・,，、]+/gu, ' ').trim();
}

const YEAR = String.raw`((?:19|20)\d{2})`;
const NUMBER = String.raw`(\d+(?:\.\d+)*)`;

/**
 * Version parts a name may end with, tried in turn on the NFKC form (so `（2024版）` reads as
 * `(2024版)`). Each gives a year or a number; the label is the matched part as written.
 */
const NAME_ENDINGS: { re: RegExp; kind: 'year' | 'number'; marked: boolean }[] = [
  { re: new RegExp(String.raw`\s*[(\[【]\s*${YEAR}\s*年?\s*(?:版|版本|edition|ed\.?|version)\s*[)\]】]$`, 'iu'), kind: 'year', marked: true },
  { re: new RegExp(String.raw`\s*[(\[【]\s*(?:v|version\s*)${NUMBER}\s*[)\]】]$`, 'iu'), kind: 'number', marked: true },
  { re: new RegExp(String.raw`[\s_\-.]*${YEAR}\s*年?\s*版$`, 'u'), kind: 'year', marked: true },
  { re: new RegExp(String.raw`[\s_\-.]*第\s*${NUMBER}\s*版$`, 'u'), kind: 'number', marked: true },
  { re: new RegExp(String.raw`(?:^|[\s_\-.])(?:v|version[\s_\-]?)${NUMBER}$`, 'iu'), kind: 'number', marked: true },
  // A bare year (`report-2024`, but also `rfc-1918`, `notes_1910`): a version only beside an alike page.
  { re: new RegExp(String.raw`[\s_\-]${YEAR}$`, 'u'), kind: 'year', marked: false },
];

/** A name split into the name proper and the version part it ends with. */
export interface NameVersion {
  rest: string;
  label: string | null;
  number: string | null;
  year: number | null;
  /** The version part says it is one (`v2`, `2024版`, `(2024 edition)`), not just a year after a dash. */
  marked: boolean;
}

/**
 * The version part at the end of a name (a file name without extension, or a title), and the name
 * without it. `rest` is the name unchanged and `label` null when it ends in no version part, or
 * when nothing but the version would be left (`2024.md` is a year's notes, not version 2024 of '').
 */
export function splitVersion(name: string): NameVersion {
  const nfkc = name.normalize('NFKC').trim();
  for (const { re, kind, marked } of NAME_ENDINGS) {
    const m = re.exec(nfkc);
    if (!m) continue;
    const rest = nfkc.slice(0, m.index).replace(/[\s_\-.]+$/u, '');
    if (!/[\p{L}\p{N}]/u.test(rest)) continue;
    const label = m[0].replace(/^[\s_\-.]+/u, '').trim();
    return kind === 'year' ? { rest, label, number: null, year: Number(m[1]), marked } : { rest, label, number: m[1]!, year: null, marked };
  }
  return { rest: nfkc, label: null, number: null, year: null, marked: false };
}

/** A year, optionally a month and a day: `2024`, `2024-01`, `2024/1/5`, `2024.1.5`, `2024年1月5日`. */
const DAY = /^\s*((?:19|20)\d{2})(?:\s*[-/.年]\s*(\d{1,2})(?:\s*[-/.月]\s*(\d{1,2})\s*日?)?\s*月?)?\s*年?\s*$/u;

/** `YYYY-MM-DD` from `2024-01-05`, `2024/1/5`, `2024.1.5`, `2024年1月5日`, or a month or year alone (its first
 *  day, or with `end` its last); null for anything else. */
export function parseDay(value: unknown, end = false): string | null {
  if (typeof value === 'number' && Number.isInteger(value)) value = String(value);
  if (typeof value !== 'string') return null;
  const m = DAY.exec(value.normalize('NFKC'));
  if (!m) return null;
  const year = Number(m[1]);
  const month = m[2] ? Number(m[2]) : end ? 12 : 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = m[3] ? Number(m[3]) : end ? lastDay : 1;
  if (month < 1 || month > 12 || day < 1 || day > lastDay) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** File extensions a link may end with (`policy_v1.md`); others stay, lest `guide.v2` lose its version. */
const LINK_EXTENSION = /\.(?:md|markdown|mdx|txt|text|rst|org|adoc|pdf|docx?|html?)$/i;

/** The key a `supersedes` link is matched by: the last path segment, no file extension, normalised. */
export function linkKey(target: string): string {
  const base = target.normalize('NFKC').trim().split(/[\\/]/).pop() ?? '';
  return normaliseName(base.replace(LINK_EXTENSION, ''));
}

function links(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const keys = list.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => linkKey(String(v)));
  return [...new Set(keys.filter(Boolean))];
}

/** A front matter `version` value: `2`, `v1.3`, `2024`, `2024版`, `第3版`, or free text kept as the label only. */
function versionValue(value: unknown): Pick<VersionFacts, 'label' | 'number' | 'year'> | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const label = String(value).normalize('NFKC').trim();
  if (!label) return null;
  const year = new RegExp(String.raw`^${YEAR}\s*(?:年?\s*版|edition)?$`, 'iu').exec(label);
  if (year) return { label, number: null, year: Number(year[1]) };
  const number = new RegExp(String.raw`^(?:v|version\s*|第\s*)?${NUMBER}\s*版?$`, 'iu').exec(label);
  return { label, number: number ? number[1]! : null, year: null };
}

/**
 * The version facts of a page from its metadata (front matter) and file name. Front matter wins for
 * the version; the file name is read only when the front matter gives none. Values that are not
 * dates are ignored (the page and its metadata are kept as they are).
 */
export function versionFacts(metadata: Record<string, unknown>, relPath: string): VersionFacts {
  const fromName = splitVersion(path.basename(relPath).replace(/\.[^.]+$/, ''));
  const named = versionValue(metadata.version);
  const version = named ?? { label: fromName.label, number: fromName.number, year: fromName.year };
  const effective = parseDay(metadata.effective);
  const expires = parseDay(metadata.expires, true);
  const supersedes = links(metadata.supersedes);
  const supersededBy = links(metadata.superseded_by);
  const fromFrontMatter = named !== null || effective !== null || expires !== null;
  return {
    ...version,
    year: version.year ?? (effective ? Number(effective.slice(0, 4)) : null),
    effective,
    expires,
    supersedes,
    supersededBy,
    declared: fromFrontMatter || supersedes.length + supersededBy.length > 0,
    marked: named === null && fromName.marked,
  };
}

/** True when a page says anything about its version. */
export function hasVersionFacts(f: VersionFacts): boolean {
  const links = f.supersedes.length + f.supersededBy.length;
  return f.label !== null || f.effective !== null || f.expires !== null || links > 0;
}

/** The grouping and link keys of a page (see {@link VersionKeys}). */
export function versionKeys(relPath: string, title: string): VersionKeys {
  const file = path.basename(relPath).replace(/\.[^.]+$/, '');
  return {
    nameKey: normaliseName(splitVersion(file).rest),
    titleKey: normaliseName(splitVersion(title).rest),
    fileKey: normaliseName(file),
    titleNorm: normaliseName(title),
  };
}

/** Everything ingest stores about a page's version. */
export function pageVersionRecord(metadata: Record<string, unknown>, relPath: string, title: string): PageVersionRecord {
  return { ...versionFacts(metadata, relPath), ...versionKeys(relPath, title) };
}
