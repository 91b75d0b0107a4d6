// Bundle the Electron main process, preload and worker threads into out/electron.
import { build } from 'esbuild';
import { electronBundles } from './electron-bundles.mjs';

await Promise.all(electronBundles.map((options) => build(options)));
console.log(`built ${electronBundles.map((b) => b.outfile).join(', ')}`);
