// `npm run dev`: the renderer on Vite's dev server with hot reload, the main process rebuilt on
// change, and Electron pointed at the dev server. Without an Electron binary, says so and exits;
// browser mode with a dev server is `npx vite` plus `npm run serve` in another terminal.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { context } from 'esbuild';
import { createServer } from 'vite';
import { electronBundles } from './electron-bundles.mjs';

const require = createRequire(import.meta.url);
let electron;
try {
  electron = require('electron');
} catch {
  console.error('Sift dev: the Electron binary (node_modules/electron/dist) is missing; run `node node_modules/electron/install.js` with network access.');
  process.exit(1);
}

const server = await createServer({ configFile: 'vite.config.ts', server: { port: 5173, strictPort: true } });
await server.listen();
const url = server.resolvedUrls.local[0];
const builds = await Promise.all(electronBundles.map((options) => context(options)));
await Promise.all(builds.map((b) => b.rebuild()));
await Promise.all(builds.map((b) => b.watch()));

const app = spawn(electron, ['.'], { stdio: 'inherit', env: { ...process.env, SIFT_DEV_SERVER_URL: url } });
app.on('exit', async (code) => {
  await Promise.all(builds.map((b) => b.dispose()));
  await server.close();
  process.exit(code ?? 0);
});
