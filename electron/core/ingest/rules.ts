/**
 * The one rule that says whether a path inside a knowledge-base folder is Sift's to read: hidden names and
 * dependency or build folders (`node_modules`, `dist`, `build` …) are never entered, the folder's exclude globs
 * and every `.gitignore` on the way leave paths out, and a file whose name says it is not text (`.gz`, `.mp4`) is
 * not read. The full scan
 * applies it folder by folder as it walks; a single path (a file the watcher saw, a targeted update) is checked
 * by {@link isExcludedPath}, which applies the very same steps from the folder down to the file.
 */
import path from 'node:path';
import type { Ignore } from 'ignore';
import { readRegularFile } from '../base/safe-read';
import { safeIgnore } from '../kb/ignore-rules';
import { isNotRead, kindOf } from './parse/kinds';

/**
 * Folders skipped by name at any depth: dependencies and build output, never notes. Hidden folders
 * (`.git`, `.next`, `.nuxt`, `.venv`, `.cache`…) are skipped anyway. `vendor` is deliberately read:
 * it is also an everyday word for a folder of supplier notes, and code repositories usually
 * `.gitignore` their vendored dependencies.
 */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules', 'bower_components', 'dist', 'build', 'out', 'target', '__pycache__', 'venv', 'coverage',
]);

/** The rules of one `.gitignore`. */
export interface IgnoreRules {
  /** Folder holding the `.gitignore`, relative to the scanned folder ('' for the folder itself). */
  base: string;
  rules: Ignore;
}

/** What the rule needs to know of a folder: its exclude globs, compiled once. */
export interface FolderRules {
  exclude: Ignore;
}

/** The compiled rules of a folder with these exclude globs (gitignore syntax, relative to the folder). */
export function folderRules(root: string, excludeGlobs: readonly string[] = []): FolderRules {
  return { exclude: safeIgnore([...excludeGlobs], `the exclude globs of ${root}`) };
}

/**
 * Largest text file (Markdown, plain text, HTML, code) ever read, whatever the size setting says (it allows up to
 * 2 GB, for PDFs). A text file is held as bytes, then as a string of up to twice their size, then as chunks and
 * tokens: a 1.9 GB Markdown file peaked at 4.5 GB before it was found to be binary. No note is this long; a text
 * file past it is a log or a dump, and is skipped by its size before a byte is read.
 */
export const TEXT_MAX_BYTES = 256 * 1024 * 1024;

/** The size cap of a file called `name`: the setting's, or {@link TEXT_MAX_BYTES} for a text kind when lower. */
export function sizeCapOf(name: string, maxFileBytes: number): { bytes: number; text: boolean } {
  const kind = kindOf(name)?.kind;
  const text = kind !== 'pdf' && kind !== 'docx' && maxFileBytes > TEXT_MAX_BYTES; // a name of no kind is read as text
  return { bytes: text ? TEXT_MAX_BYTES : maxFileBytes, text };
}

/** True for a name never read or entered, whatever the rules: hidden names (`.git`, `.env`). */
export function isHidden(name: string): boolean {
  return name.startsWith('.');
}

/** True when a sub-folder called `name` at `rel` (relative, `/`-separated) is entered. */
export function wantsFolder(folder: FolderRules, rules: IgnoreRules[], name: string, rel: string): boolean {
  return !isHidden(name) && !SKIPPED_FOLDERS.has(name) && !isIgnored(folder, rules, `${rel}/`);
}

/**
 * What becomes of a file called `name` at `rel`: `read` (a kind Sift reads, or a name that says nothing, whose
 * content decides), `excluded` (hidden, or left out by a rule: never listed), or `not-read` (its name says it is
 * not a kind Sift reads: listed with that reason).
 */
export function fileVerdict(folder: FolderRules, rules: IgnoreRules[], name: string, rel: string): 'read' | 'excluded' | 'not-read' {
  if (isHidden(name) || isIgnored(folder, rules, rel)) return 'excluded';
  return isNotRead(name) ? 'not-read' : 'read';
}

/** True when a file called `name` at `rel` is read: no rule leaves it out and its name does not say "not text". */
export function wantsFile(folder: FolderRules, rules: IgnoreRules[], name: string, rel: string): boolean {
  return fileVerdict(folder, rules, name, rel) === 'read';
}

/**
 * True when the user's globs exclude `rel` (a folder ends with `/`), or the nearest `.gitignore` with
 * an opinion does: deeper files override shallower ones, and `!pattern` re-includes, as in git.
 */
function isIgnored(folder: FolderRules, rules: IgnoreRules[], rel: string): boolean {
  try {
    if (folder.exclude.ignores(rel)) return true;
    for (let i = rules.length - 1; i >= 0; i--) {
      const { base, rules: set } = rules[i]!;
      const verdict = set.test(base ? rel.slice(base.length + 1) : rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
  } catch {
    return false; // a name the ignore library cannot express as a relative path: no rule can match it
  }
  return false;
}

/** Bounds on reading a `.gitignore`: real ones are a few KB. */
const GITIGNORE_MAX_BYTES = 1 << 20;
const GITIGNORE_TIME_LIMIT_MS = 5000;

/**
 * The rules in force inside the folder at `abs` (relative `rel`): its parents' plus its own `.gitignore`,
 * if it has one. Read like any file Sift did not write: a `.gitignore` that is a FIFO or a device would
 * hang the scan. An unreadable or missing one excludes nothing, as in git.
 */
export function withGitignore(abs: string, rel: string, parents: IgnoreRules[]): IgnoreRules[] {
  const file = path.join(abs, '.gitignore');
  try {
    const read = readRegularFile(file, GITIGNORE_MAX_BYTES, GITIGNORE_TIME_LIMIT_MS);
    if (!read.ok) return parents;
    return [...parents, { base: rel, rules: safeIgnore(read.bytes.toString('utf8'), file) }];
  } catch {
    return parents;
  }
}

/**
 * True when the rule leaves `rel` (a file's path relative to `root`, `/`-separated) out: a hidden or
 * skipped folder on the way, an exclude glob, a `.gitignore` of the folder or of any folder on the way, a
 * hidden name or an unsupported kind. The same steps, in the same order, as the full scan takes.
 */
export function isExcludedPath(root: string, folder: FolderRules, rel: string): boolean {
  const segments = rel.split('/').filter(Boolean);
  const name = segments.pop();
  if (name === undefined) return true;
  let rules = withGitignore(root, '', []);
  let dirRel = '';
  for (const segment of segments) {
    if (segment === '..') return true;
    dirRel = dirRel ? `${dirRel}/${segment}` : segment;
    if (!wantsFolder(folder, rules, segment, dirRel)) return true;
    rules = withGitignore(path.join(root, ...dirRel.split('/')), dirRel, rules);
  }
  return !wantsFile(folder, rules, name, rel);
}

/**
 * True when a path (absolute or relative to the watched folder) lies under a hidden or skipped folder or
 * has a hidden name: a cheap filter by names alone, for what a watcher should not even watch.
 */
export function isSkippedByName(rel: string): boolean {
  return rel.split(/[\\/]/).some((segment) => segment !== '' && (isHidden(segment) || SKIPPED_FOLDERS.has(segment)));
}
