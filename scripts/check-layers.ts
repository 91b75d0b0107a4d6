/**
 * The layer rule, checked on every import (run by `npm run lint`):
 * - `shared/` imports only `shared/` and pure packages — no other layer, no Node built-ins, no electron;
 * - `electron/core/` never imports `electron`, nor the hosts, the CLI, or the renderer;
 * - `renderer/` imports only `renderer/`, `shared/` and browser packages — no electron, no Node built-ins.
 * Folders are the layers, as in VS Code's code-layering rule; a violation names file, line and import.
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
  reason: string;
}

const SOURCE = /\.(m|c)?(t|j)sx?$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git']);
const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?[^'"]*?\sfrom\s+['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function isElectron(spec: string): boolean {
  return spec === 'electron' || spec.startsWith('electron/');
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]!);
}

/** Which layer a repository-relative path belongs to, or null when it is not layered. */
function layerOf(rel: string): 'shared' | 'core' | 'renderer' | null {
  if (rel.startsWith('shared/')) return 'shared';
  if (rel.startsWith('electron/core/')) return 'core';
  if (rel.startsWith('renderer/')) return 'renderer';
  return null;
}

/** The reason `spec` (imported by `fromRel`) breaks the rule, or null when it is allowed. */
function judge(layer: 'shared' | 'core' | 'renderer', fromRel: string, spec: string): string | null {
  const relative = spec.startsWith('.');
  const target = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec)) : null;
  if (layer === 'shared') {
    if (isElectron(spec)) return 'shared/ must not import electron';
    if (!relative && isBuiltin(spec)) return 'shared/ must stay pure: no Node built-ins';
    if (target && !target.startsWith('shared/')) return 'shared/ must not import another layer';
  }
  if (layer === 'core') {
    if (isElectron(spec)) return 'electron/core must never import electron';
    if (target && !target.startsWith('electron/core/') && !target.startsWith('shared/') && target !== 'package.json') {
      return 'electron/core may import only electron/core and shared';
    }
  }
  if (layer === 'renderer') {
    if (isElectron(spec)) return 'renderer/ must not import electron';
    if (!relative && isBuiltin(spec)) return 'renderer/ must not import Node built-ins';
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

/** Check every source file of the three layers under `root`. */
export function checkLayers(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const top of ['shared', 'electron/core', 'renderer']) {
    for (const file of sourceFiles(path.join(root, top))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const layer = layerOf(rel);
      if (!layer) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of IMPORT_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          const spec = match[1]!;
          const reason = judge(layer, rel, spec);
          if (reason) violations.push({ file: rel, line: text.slice(0, match.index).split('\n').length, specifier: spec, reason });
        }
      }
    }
  }
  return violations;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? '.');
  const found = checkLayers(root);
  for (const v of found) console.error(`${v.file}:${v.line}: import "${v.specifier}": ${v.reason}`);
  if (found.length) {
    console.error(`layer check: ${found.length} violation(s)`);
    process.exit(1);
  }
  console.log('layer check: ok');
}
