/**
 * End-to-end fixture: a real `sift serve` process on a fresh data folder, its URL (with token)
 * read from its output, stopped after the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

export interface Served {
  url: string;
  dataDir: string;
  /** Run another `sift` command against the same data folder; resolves with its stdout. */
  cli(...args: string[]): Promise<string>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'sift.mjs');

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sift serve printed no URL:\n${out}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(/running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`sift serve exited with ${code}:\n${out}`)));
  });
}

export const test = base.extend<{ served: Served }>({
  served: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-'));
    const child = spawn(process.execPath, [bin, '--data-dir', dataDir, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await waitForUrl(child);
    const cli = (...args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(process.execPath, [bin, '--data-dir', dataDir, ...args]);
        let stdout = '';
        p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        p.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`sift ${args.join(' ')} exited ${code}`))));
      });
    await use({ url, dataDir, cli });
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
