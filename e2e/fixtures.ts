/**
 * End-to-end fixtures: a real `sift serve` process on a fresh data folder with the test embedding
 * model and a scripted mock Ollama, plus the fixture folders to index. Everything is stopped and
 * deleted after the test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { writeTestModel } from '../electron/core/embed/testing/test-model';
import { startMockOllama, type MockOllama } from '../electron/core/testing/ollama-mock';
import { writeKitchenFolder, writeMainFolder } from './corpus';
import { startSift } from './sift-process';

export interface Served {
  url: string;
  dataDir: string;
  /** Run another `sift` command against the same data folder; resolves with its stdout. */
  cli(...args: string[]): Promise<string>;
  /** The mock Ollama the core talks to; `close()` it to take Ollama away. */
  ollama: MockOllama;
  /** The main fixture folder (Markdown, GBK text, PDF, DOCX and a broken PDF). */
  folder: string;
  /** A second folder with unrelated pages (recipes), for a second knowledge base. */
  kitchenFolder: string;
}

export const test = base.extend<{ served: Served }, { modelDir: string }>({
  // One tiny ONNX model per worker: writing it takes a moment and it never changes.
  modelDir: [
    async ({}, use) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-model-'));
      await writeTestModel(dir);
      await use(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  served: async ({ modelDir }, use) => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-files-'));
    const folder = await writeMainFolder(path.join(scratch, 'library'));
    const kitchenFolder = writeKitchenFolder(path.join(scratch, 'kitchen'));
    const ollama = await startMockOllama();
    const sift = await startSift({ modelDir, ollamaUrl: ollama.url });
    try {
      await use({ url: sift.url, dataDir: sift.dataDir, cli: sift.cli, ollama, folder, kitchenFolder });
    } finally {
      await sift.stop();
      await ollama.close().catch(() => undefined);
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  },
});

export { expect } from '@playwright/test';
