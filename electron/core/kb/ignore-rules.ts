/**
 * Gitignore-syntax patterns made safe to match. The `ignore` library turns each `**` into a regular
 * expression group that backtracks: `a/` then twelve `**` segments in a row then `b` took 40 s for one
 * path, on the main thread. Runs of `**` segments mean the same as one, so they are collapsed; what is still too
 * complex (many `**` apart, very long) is left out with a logged warning rather than risk a freeze.
 */
import ignore, { type Ignore } from 'ignore';

/** Most `**` segments a pattern may keep after collapsing runs: 3 match a 40-deep path in about 1 ms, 5 in 300 ms. */
export const MAX_GLOBSTARS = 3;
/** Most wildcard characters (`*`, `?`, `[`) in one pattern. */
export const MAX_WILDCARDS = 32;
/** Longest pattern, in characters. */
export const MAX_PATTERN_LENGTH = 1024;

/**
 * The pattern with every run of consecutive `**` segments collapsed to one (two `**` segments in a
 * row match exactly the paths one does). Comments, blank lines and negation marks pass through.
 */
export function collapseGlobstars(pattern: string): string {
  const negated = pattern.startsWith('!') ? '!' : '';
  const segments = pattern.slice(negated.length).split('/');
  const kept = segments.filter((s, i) => !(s === '**' && segments[i - 1] === '**'));
  return negated + kept.join('/');
}

/** Why a (collapsed) pattern is too complex to match safely, or null when it is fine. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  const globstars = pattern.split('/').filter((s) => s === '**' || s === '!**').length;
  if (globstars > MAX_GLOBSTARS) return `${globstars} separate "**" segments (at most ${MAX_GLOBSTARS})`;
  const wildcards = (pattern.match(/[*?[]/g) ?? []).length;
  if (wildcards > MAX_WILDCARDS) return `${wildcards} wildcards (at most ${MAX_WILDCARDS})`;
  return null;
}

/** The problem of a user's exclude glob after collapsing, for refusing it where it is entered. */
export function globProblem(glob: string): string | null {
  return patternProblem(collapseGlobstars(glob.trim()));
}

/**
 * An `ignore` matcher for `lines` (a `.gitignore` text or a list of globs): runs of `**` collapsed,
 * patterns still too complex left out, each with a warning that names `source`.
 */
export function safeIgnore(
  lines: string | string[],
  source: string,
  warn: (message: string) => void = logWarning,
): Ignore {
  const list = typeof lines === 'string' ? lines.split(/\r?\n/) : lines;
  const kept: string[] = [];
  for (const line of list) {
    const pattern = collapseGlobstars(line);
    const problem = line.trim() === '' || line.startsWith('#') ? null : patternProblem(pattern);
    const shown = line.slice(0, 80);
    if (problem) warn(`[sift] ${source}: left out the pattern "${shown}": too complex to match safely (${problem})`);
    else kept.push(pattern);
  }
  return ignore().add(kept);
}

function logWarning(message: string): void {
  console.warn(message);
}
