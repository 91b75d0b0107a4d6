import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';

const guard = path.join(path.dirname(fileURLToPath(import.meta.url)), 'process-guard.ts');

/** Run a small Node program that installs the guard, then misbehaves; resolves with its exit code and output. */
function runGuarded(misbehave: string): Promise<{ code: number | null; out: string; err: string }> {
  const script = path.join(tempDir(), 'guarded.mjs');
  fs.writeFileSync(
    script,
    [
      `const { installProcessGuard } = await import(${JSON.stringify(pathToFileURL(guard).href)});`,
      'installProcessGuard();',
      misbehave,
      "setTimeout(() => console.log('still serving'), 200);",
    ].join('\n'),
  );
  return new Promise((resolve) => {
    // `--import tsx` is resolved from the working folder (the project), so the program can load TypeScript.
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: path.dirname(guard) });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('the process guard of long-running hosts', () => {
  it('logs an unhandled rejection and keeps the process running', async () => {
    const run = await runGuarded("Promise.reject(new Error('FOREIGN KEY constraint failed'));");
    expect(run.out).toContain('still serving');
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/\[sift\] unhandled promise rejection \(still running\):[\s\S]*FOREIGN KEY/);
  });

  it('logs an uncaught exception and keeps the process running', async () => {
    const run = await runGuarded("setTimeout(() => { throw new Error('boom in a callback'); }, 10);");
    expect(run.out).toContain('still serving');
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/\[sift\] uncaught exception, uncaughtException \(still running\):[\s\S]*boom/);
  });
});
