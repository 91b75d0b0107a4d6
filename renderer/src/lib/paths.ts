/** Checks on paths people type (folders to index, folders to export into), before asking the core. */

/** Why a typed path cannot be a folder's full path. */
export type PathProblem = 'empty' | 'not-full';

/**
 * Why `path` cannot be a folder's full path, or null when it can. Full means absolute: `/…`, `~`
 * or `~/…`, a drive letter (`C:\`, `C:/`) or a network share (`\\server`). The core checks that
 * it exists and is a folder.
 */
export function pathProblem(path: string): PathProblem | null {
  const p = path.trim();
  if (p === '') return 'empty';
  if (!/^(\/|~(\/|$)|[A-Za-z]:[\\/]|\\\\)/.test(p)) return 'not-full';
  return null;
}

/**
 * The exclude patterns typed in an editor, one per line: trimmed, blank lines and `#` comments
 * dropped, each pattern once (first occurrence kept), in the order typed.
 */
export function parseGlobs(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const glob = line.trim();
    if (glob && !glob.startsWith('#')) seen.add(glob);
  }
  return [...seen];
}
