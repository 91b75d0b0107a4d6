import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { META_CONTENT_SECURITY_POLICY } from './electron/hosts/csp';

/**
 * The built index.html carries the hosts' Content-Security-Policy as a `<meta>` fallback. Only in
 * the build: the dev server needs inline scripts and a websocket for hot reload, and a meta policy
 * cannot be relaxed by the header Electron sends in `npm run dev`.
 */
function cspMeta(): Plugin {
  return {
    name: 'sift-csp-meta',
    apply: 'build',
    // Prepended: a meta policy governs only what comes after it, so it must precede every script.
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

// The renderer is built to out/renderer with relative asset paths, so Electron can load it from
// app://sift and the loopback host can serve it from any port.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), cspMeta()],
  build: { outDir: '../out/renderer', emptyOutDir: true, sourcemap: true },
});
