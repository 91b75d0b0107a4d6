// Bundle the Electron main process, preload and worker threads into out/electron. Native modules
// and the model runtime stay external: they are rebuilt for Electron's ABI when packaging.
import { build } from 'esbuild';

const external = ['electron', 'better-sqlite3', 'sqlite-vec', 'onnxruntime-node', '@huggingface/transformers', 'sharp', 'pdfjs-dist', 'onnx-proto'];
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external,
  define: { __SIFT_BUNDLED__: 'true' },
  // In the CommonJS bundle import.meta.url is empty; the code falls back to __dirname on purpose.
  logOverride: { 'empty-import-meta': 'silent' },
};

await build({ ...common, format: 'cjs', entryPoints: ['electron/main.ts'], outfile: 'out/electron/main.cjs' });
await build({ ...common, format: 'cjs', entryPoints: ['electron/preload.ts'], outfile: 'out/electron/preload.cjs', external: ['electron'] });
await build({ ...common, format: 'cjs', entryPoints: ['electron/core/ingest/ingest-worker.ts'], outfile: 'out/electron/ingest-worker.cjs' });
await build({ ...common, format: 'esm', entryPoints: ['electron/core/embed/embed-worker-main.ts'], outfile: 'out/electron/embed-worker.mjs' });
console.log('built out/electron: main.cjs, preload.cjs, ingest-worker.cjs, embed-worker.mjs');
