import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is built to out/renderer with relative asset paths, so Electron can load it from a
// file and the loopback host can serve it from any port.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../out/renderer', emptyOutDir: true, sourcemap: true },
});
