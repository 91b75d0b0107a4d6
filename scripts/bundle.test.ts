/**
 * The Electron bundles, checked under plain Node: the core bundled exactly as for the app (CommonJS
 * main + compiled worker threads side by side) indexes a folder with the real test model in its
 * workers, builds the in-memory vector index in its worker, searches, and reranks with the tiny cross-encoder in
 * its worker. This is what would break
 * first in a packaged app and nowhere else.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTestModel } from '../electron/core/embed/testing/test-model';
import { writeTestCrossEncoder } from '../electron/core/search/rerank/testing/test-cross-encoder';
import { tempDir } from '../electron/core/testing/temp';
// @ts-expect-error -- a plain .mjs module shared with the build scripts
import { electronBundles } from './electron-bundles.mjs';

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'out', `bundle-test-${process.pid}`);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('the Electron bundles', () => {
  it('index and search with every worker thread bundled', async () => {
    const models = tempDir();
    const docs = tempDir();
    const data = tempDir();
    await writeTestModel(models);
    const { modelId: crossEncoder } = await writeTestCrossEncoder(models);
    fs.writeFileSync(path.join(docs, 'a.md'), '# 超时\n\n连接超时后重试三次 E_CONN_RESET。\n');
    const entry = path.join(outDir, 'entry.ts');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(
      entry,
      `import { createSift } from ${JSON.stringify(path.join(root, 'electron/core'))};
import { createCrossEncoderReranker } from ${JSON.stringify(path.join(root, 'electron/core/search/rerank/cross-encoder'))};
void (async () => {
const sift = createSift({ dataDir: ${JSON.stringify(data)}, embedding: { provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: ${JSON.stringify(models)}, allowDownload: false }, search: { exactBelow: 0, settleMs: 0 } });
const kb = await sift.invoke('kb.create', { name: 'B' });
await sift.invoke('folder.add', { kb: 'B', path: ${JSON.stringify(docs)} });
const status = await sift.ingest('B');
await sift.invoke('search.query', { kb: 'B', query: '超时' }); // starts building the vector index in its worker
await new Promise((r) => setTimeout(r, 2000));
const found = await sift.invoke('search.query', { kb: 'B', query: '超时' });
const reranker = createCrossEncoderReranker({ modelsDir: ${JSON.stringify(models)}, modelId: '${crossEncoder}', allowDownload: false });
const reranked = await reranker.rerank('connection timeout', ['music', 'a connection timeout']);
await reranker.close();
console.log(JSON.stringify({ ok: kb.ok, chunks: status.chunks, embedded: status.chunksEmbedded, error: status.error, found, reranked }));
await sift.close();
})();`,
    );
    const bundles = (electronBundles as { outfile: string; entryPoints: string[] }[]).map((b) => ({ ...b, outfile: path.join(outDir, path.basename(b.outfile)) }));
    await Promise.all(bundles.map((b) => build(b)));
    // Built like main.cjs: CommonJS, where import.meta.url is empty and workers are found by __dirname.
    await build({ ...bundles[0], entryPoints: [entry], outfile: path.join(outDir, 'smoke.cjs') });
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(outDir, 'smoke.cjs')], { timeout: 60_000 });
    expect(stderr).not.toMatch(/vector index|worker/i);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ ok: true, chunks: 1, embedded: 1, error: null, found: { ok: true, value: { mode: 'hybrid' } } });
    expect(result.found.value.passages[0].pagePath).toBe('wiki/a.md');
    expect(result.reranked).toMatchObject({ kind: 'cross-encoder', order: [1, 0], scores: [0, 2], fallback: null });
  }, 90_000);
});
