// Bundle the Electron main process and preload into out/electron (CommonJS, as Electron loads
// them). Native modules stay external: they are rebuilt for Electron's ABI when packaging.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['electron/main.ts'],
  outfile: 'out/electron/main.cjs',
  external: ['electron', 'better-sqlite3', 'sqlite-vec', 'onnxruntime-node', '@huggingface/transformers', 'sharp', 'pdfjs-dist'],
});
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'out/electron/preload.cjs', external: ['electron'] });
console.log('built out/electron/main.cjs and out/electron/preload.cjs');
