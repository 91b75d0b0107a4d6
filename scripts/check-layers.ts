/**
 * The layer rule, checked on every import (run by `npm run lint`). Folders are the layers, as in VS Code's
 * code-layering rule; a violation names both files and the rule it breaks.
 *
 * Between the processes:
 * - `shared/` imports only `shared/` and pure packages — no other layer, no Node built-ins, no electron;
 * - `electron/core/` never imports `electron`, nor the hosts, the CLI, or the renderer;
 * - `renderer/` imports only `renderer/`, `shared/` and browser packages — no electron, no Node built-ins.
 *
 * Inside `electron/core`, bottom to top (CORE_LAYERS). A module imports only its own part and the parts of
 * lower layers; parts that share a layer (`embed` and `llm`, say) are peers and do not import each other.
 *
 *   base      base/ (events, paths, clocks, small helpers), workers/ (the worker-thread protocol)
 *   store     store/ — the SQLite files, their migrations (each carrying its own SQL), the page model and
 *             its types, vector tables, the core context
 *   text      text/ — tokenizing, sentences, chunking (pure functions over the page model's text)
 *   kb        kb/ (knowledge bases, folders, ignore rules), config/ (settings, API keys)
 *   models    embed/ (embedding models), llm/ (chat model clients), ocr/ (the OCR models and their pre/post-processing)
 *   ingest    ingest/ — scan, parse, prepare, write pages; page features plug in (ingest/page-features.ts)
 *   search    search/ — keyword and vector stages, fusion, passages; ranking features plug in
 *   features  glossary/, versions/ — features that read the page model and plug into ingest and search
 *   chat      chat/ — turns, prompts, citations
 *   outputs   digests/, export/
 *   facade    the files at the top of electron/core (sift.ts, live-config.ts, the worker entries)
 *   eval      eval/ — runs datasets through the facade, as a host would
 *
 * Tests and test helpers: a `*.test.ts` file or a file under a `testing/` folder is held to its folder's
 * layer too, with exactly these ways up: the facade (`sift.ts`, integration tests drive the whole core as a
 * host does), and any `testing/` helper (fixtures, test servers). `electron/core/testing/` (the model-server
 * mocks, temporary folders) serves every layer. Nothing that is not a test imports a test or a helper.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One import that breaks the rule. */
export interface Violation {
  file: string;
  line: number;
  specifier: string;
  /** The file the import resolves to (repository-relative), when it is a relative import. */
  target: string | null;
  reason: string;
}

/** The layers of `electron/core`, bottom first; each lists its parts (folders, or `.` for the top-level files). */
export const CORE_LAYERS: readonly { layer: string; parts: readonly string[] }[] = [
  { layer: 'base', parts: ['base', 'workers'] },
  { layer: 'store', parts: ['store'] },
  { layer: 'text', parts: ['text'] },
  { layer: 'kb', parts: ['kb', 'config'] },
  { layer: 'models', parts: ['embed', 'llm', 'ocr'] },
  { layer: 'ingest', parts: ['ingest'] },
  { layer: 'search', parts: ['search'] },
  { layer: 'features', parts: ['glossary', 'versions'] },
  { layer: 'chat', parts: ['chat'] },
  { layer: 'outputs', parts: ['digests', 'export'] },
  { layer: 'facade', parts: ['.'] },
  { layer: 'eval', parts: ['eval'] },
];

/** Test support for every layer: imported by tests only. */
const CORE_TESTING = 'testing';

const SOURCE = /\.(m|c)?(t|j)sx?$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git']);
const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?[^'"]*?\sfrom\s+['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  // A worker thread's module (`spawnWorker(() => new URL('./ingest-worker.ts', import.meta.url), …)`).
  /\bnew\s+URL\(\s*['"](\.{1,2}\/[^'"]+\.ts)['"]\s*,\s*import\.meta\.url/g,
];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const CORE = 'electron/core/';

function isElectron(spec: string): boolean {
  return spec === 'electron' || spec.startsWith('electron/');
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]!);
}

type ProcessLayer = 'shared' | 'core' | 'renderer';

/** Which process layer a repository-relative path belongs to, or null when it is not layered. */
function processOf(rel: string): ProcessLayer | null {
  if (rel.startsWith('shared/')) return 'shared';
  if (rel.startsWith(CORE)) return 'core';
  if (rel.startsWith('renderer/')) return 'renderer';
  return null;
}

/** True for a test file or a file of a `testing/` folder. */
function isTestSupport(rel: string): boolean {
  return /\.test\.[cm]?[tj]sx?$/.test(rel) || rel.split('/').includes('testing');
}

/** The part of `electron/core` a core path belongs to: its first folder, or `.` for the top-level files. */
function partOf(coreRel: string): string {
  const first = coreRel.slice(CORE.length).split('/');
  return first.length === 1 ? '.' : first[0]!;
}

/** The rank of a part in CORE_LAYERS, or -1 for a part the order does not name. */
function rankOf(part: string): number {
  return CORE_LAYERS.findIndex((l) => l.parts.includes(part));
}

function layerName(part: string): string {
  const found = CORE_LAYERS[rankOf(part)];
  return found ? `${found.layer} (${part === '.' ? 'the facade files' : `${part}/`})` : `${part}/`;
}

/** The reason a core module `fromRel` may not import the core module `target`, or null when it may. */
function judgeCore(fromRel: string, target: string): string | null {
  const from = partOf(fromRel);
  const to = partOf(target);
  const test = isTestSupport(fromRel);
  if (isTestSupport(target) && !test) return 'only tests import tests and testing/ helpers';
  if (from === CORE_TESTING || to === CORE_TESTING) return null;
  const unplaced = [from, to].find((part) => rankOf(part) < 0);
  if (unplaced) return `electron/core/${unplaced}/ is in no layer: add it to CORE_LAYERS in scripts/check-layers.ts`;
  if (from === to) return null;
  if (test && (target === `${CORE}sift.ts` || isTestSupport(target))) return null;
  const [rf, rt] = [rankOf(from), rankOf(to)];
  if (rt < rf) return null;
  if (rt === rf) return `${layerName(from)} and ${layerName(to)} are peers in one layer: neither imports the other`;
  return `${layerName(from)} is below ${layerName(to)}: a layer imports only the layers under it`;
}

/** The reason `spec` (imported by `fromRel`) breaks the rule, or null when it is allowed. */
function judge(layer: ProcessLayer, fromRel: string, spec: string, target: string | null): string | null {
  if (layer === 'shared') {
    if (isElectron(spec)) return 'shared/ must not import electron';
    if (!target && isBuiltin(spec)) return 'shared/ must stay pure: no Node built-ins';
    if (target && !target.startsWith('shared/')) return 'shared/ must not import another layer';
  }
  if (layer === 'core') {
    if (isElectron(spec)) return 'electron/core must never import electron';
    if (target && !target.startsWith(CORE) && !target.startsWith('shared/') && target !== 'package.json') {
      return 'electron/core may import only electron/core and shared';
    }
    if (target?.startsWith(CORE)) return judgeCore(fromRel, target);
  }
  if (layer === 'renderer') {
    if (isElectron(spec)) return 'renderer/ must not import electron';
    if (!target && isBuiltin(spec)) return 'renderer/ must not import Node built-ins';
    if (target && !target.startsWith('renderer/') && !target.startsWith('shared/')) return 'renderer/ may import only renderer and shared';
  }
  return null;
}

function* sourceFiles(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs', '/index.ts', '/index.tsx'];

/** The repository-relative file a relative import names (its extension or `/index` added), or the import as written. */
function resolveSource(root: string, joined: string): string {
  const base = path.posix.normalize(joined);
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return base;
}

/** Check every source file of the three process layers under `root`. */
export function checkLayers(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const top of ['shared', 'electron/core', 'renderer']) {
    for (const file of sourceFiles(path.join(root, top))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const layer = processOf(rel);
      if (!layer) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of IMPORT_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          const spec = match[1]!;
          const joined = path.posix.join(path.posix.dirname(rel), spec);
          const target = spec.startsWith('.') ? resolveSource(root, joined) : null;
          const reason = judge(layer, rel, spec, target);
          if (!reason) continue;
          const line = text.slice(0, match.index).split('\n').length;
          violations.push({ file: rel, line, specifier: spec, target, reason });
        }
      }
    }
  }
  return violations;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const found = checkLayers(root);
  for (const v of found) console.error(`${v.file}:${v.line} imports ${v.target ?? `"${v.specifier}"`}: ${v.reason}`);
  if (found.length) {
    console.error(`layer check: ${found.length} violation(s)`);
    process.exit(1);
  }
  console.log('layer check: ok');
}
