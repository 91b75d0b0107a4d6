/**
 * A development host for working on the UI by hand: the fixture folders, the test embedding model,
 * a mock Ollama that streams a cited answer slowly, and `sift serve` on them. Prints the URL and
 * runs until Ctrl+C. Not a test.
 *
 *   npm run build:renderer && npx tsx e2e/dev.ts [--port N] [--no-ollama] [--kb]
 *
 * `--kb` also creates a knowledge base "Library" with the main folder, so you start with pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeTestModel } from '../electron/core/embed/testing/test-model';
import { startMockOllama } from '../electron/core/testing/ollama-mock';
import { writeKitchenFolder, writeMainFolder } from './corpus';
import { citingReply } from './replies';
import { runCli, startSift } from './sift-process';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const port = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : 0;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-dev-'));
  const folder = await writeMainFolder(path.join(scratch, 'library'));
  writeKitchenFolder(path.join(scratch, 'kitchen'));
  const modelDir = path.join(scratch, 'models');
  await writeTestModel(modelDir);
  const ollama = argv.includes('--no-ollama') ? null : await startMockOllama();
  ollama?.onChat(() => citingReply(40));
  const dataDir = path.join(scratch, 'data');
  // Before the host starts, so it indexes the knowledge base as it comes up.
  if (argv.includes('--kb')) {
    await runCli(dataDir, ['kb', 'create', 'Library']);
    await runCli(dataDir, ['folder', 'add', 'Library', folder]);
  }
  const sift = await startSift({ dataDir, modelDir, ollamaUrl: ollama?.url ?? 'http://127.0.0.1:9', port, echo: true });
  console.log(`\nfolders: ${scratch}/library, ${scratch}/kitchen\nopen: ${sift.url}\n`);
  const stop = async () => {
    await sift.stop();
    await ollama?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

void main();
