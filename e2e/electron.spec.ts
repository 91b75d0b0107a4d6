/**
 * The desktop app end to end, through Playwright's Electron driver: the built main process
 * (`out/electron/main.cjs`) with the built renderer, a fresh data folder, the test embedding model
 * and a mock Ollama. Create a knowledge base, add a folder (typed: the OS picker cannot be
 * driven), ask, open a citation, copy and export (saved into a typed folder, also as PDF through
 * Electron's own printToPDF). Skipped, saying why, where no Electron binary is installed.
 * Needs a display on Linux (e.g. `xvfb-run npx playwright test e2e/electron.spec.ts`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { TEST_MODEL_ID, writeTestModel } from '../electron/core/embed/testing/test-model';
import { startMockOllama, type MockOllama } from '../electron/core/testing/ollama-mock';
import { writeMainFolder } from './corpus';
import { addFolderAndIndex, ask, createKb, lastAnswer, showScreen, waitTurnEnded } from './helpers';
import { citingReply } from './replies';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron binary's path, or null when the package is there without its binary (downloads skipped). */
function electronBinary(): string | null {
  try {
    const binary: unknown = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const hasElectron = binary !== null;

const SKIP_REASON = 'Electron binary not installed (node_modules/electron/dist missing; run node node_modules/electron/install.js with network access)';
test.skip(!hasElectron, SKIP_REASON);
// The list reporter does not print skip reasons; say it once, from the runner (workers have an index).
if (!hasElectron && process.env.TEST_WORKER_INDEX === undefined) console.warn(`e2e/electron.spec.ts skipped: ${SKIP_REASON}`);

let scratch: string;
let ollama: MockOllama;
let app: ElectronApplication;
let page: Page;

test.beforeAll(async () => {
  // The main process is bundled from the current sources, so the test never runs a stale build.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-electron.mjs')], { cwd: root, stdio: 'inherit' });
  if (!fs.existsSync(path.join(root, 'out', 'renderer', 'index.html'))) {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  }
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-electron-'));
  await writeTestModel(path.join(scratch, 'models'));
  await writeMainFolder(path.join(scratch, 'library'));
  fs.mkdirSync(path.join(scratch, 'exports'));
  ollama = await startMockOllama();
  app = await electron.launch({
    executablePath: binary!,
    // Root (as in CI containers) cannot use Chromium's sandbox.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), path.join(root, 'out', 'electron', 'main.cjs')],
    env: {
      ...process.env,
      SIFT_DATA_DIR: path.join(scratch, 'data'),
      OLLAMA_HOST: ollama.url,
      SIFT_MODEL_DIR: path.join(scratch, 'models'),
      SIFT_EMBED_MODEL: TEST_MODEL_ID,
    },
  });
  page = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  await ollama?.close().catch(() => undefined);
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('the desktop app: knowledge base, typed folder, answer, citation, copy and export into a folder', async ({}, testInfo) => {
  await expect(page.getByRole('heading', { name: 'No knowledge base yet' })).toBeVisible();
  await createKb(page, 'Library');
  await addFolderAndIndex(page, path.join(scratch, 'library'));
  // The desktop app offers the native picker next to the path field.
  await expect(page.getByRole('button', { name: 'Choose…' })).toBeVisible();

  await showScreen(page, 'Chat');
  ollama.onChat(citingReply(5));
  await ask(page, 'How long until the gateway times out?');
  await waitTurnEnded(page, /^Done$/);
  const answer = lastAnswer(page);
  const chip = answer.getByRole('button', { name: /^Citation 1: / }).first();
  const title = (await chip.getAttribute('aria-label'))!.replace(/^Citation 1: /, '');
  await chip.click();
  const reader = page.getByRole('complementary', { name: 'Source' });
  await expect(reader.getByRole('heading', { level: 2, name: title })).toBeVisible();
  await expect(reader.getByLabel('Page text').locator('mark').first()).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('electron-answer.png') });

  await answer.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(answer.getByRole('status')).toHaveText('Copied');
  const copied = await app.evaluate(({ clipboard }) => clipboard.readText());
  expect(copied).toMatch(/^\[\^1\]: “.+”$/m);

  // In the app an export is always saved into a folder: picked with the OS dialog, or typed.
  const folder = path.join(scratch, 'exports');
  await answer.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('radio', { name: 'Save into a folder on this computer' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Choose…' })).toBeVisible();
  await dialog.getByLabel('Folder', { exact: true }).fill(folder);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Saved to ${folder}`);
  const md = fs.readdirSync(folder).find((f) => f.endsWith('.md'))!;
  expect(fs.readFileSync(path.join(folder, md), 'utf8')).toMatch(/^\[\^1\]: “.+”$/m);

  await dialog.getByRole('radio', { name: 'PDF', exact: true }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('status')).toContainText('.pdf', { timeout: 60_000 });
  const pdf = fs.readdirSync(folder).find((f) => f.endsWith('.pdf'))!;
  expect(fs.readFileSync(path.join(folder, pdf)).subarray(0, 5).toString()).toBe('%PDF-');
  await page.screenshot({ path: testInfo.outputPath('electron-exported.png') });
});
