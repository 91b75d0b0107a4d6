// Entry of the embedding worker when Sift runs from its TypeScript sources (vitest, the `sift` CLI
// through tsx). A worker thread does not inherit the parent's TypeScript loader, so this registers
// tsx itself and then loads the implementation beside it. The Electron build instead bundles
// `embed-worker-main.ts` into a file of this same name (see EMBED_WORKER in transformers.ts), so
// the main thread always starts `embed-worker.mjs` from its own folder.
import { existsSync } from 'node:fs';

const implementation = new URL('./embed-worker-main.ts', import.meta.url);
if (!existsSync(implementation)) {
  throw new Error(`embed-worker.mjs: ${implementation.pathname} is missing; reinstall Sift or rebuild it.`);
}
const { register } = await import('tsx/esm/api');
register();
await import(implementation.href);
