// Builds the renderer into dist/renderer. `base: './'` keeps every asset URL relative so the
// same build loads from `loupe serve` (http://127.0.0.1:<port>/) and from the desktop app's
// app:// protocol. Everything is bundled: no CDN, no external font.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

// `vite dev` against a running `loupe serve`: LOUPE_DEV_HOST=http://127.0.0.1:5170 npx vite
// --config renderer/vite.config.ts, then open http://127.0.0.1:5173/?token=<the token it printed>.
// The proxy presents itself as the served page (Origin/Host), which the web host requires.
const devHost = process.env.LOUPE_DEV_HOST;

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One small inline-free bundle: the CSP allows no inline script.
    assetsInlineLimit: 0,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    proxy: devHost
      ? {
          '/api': {
            target: devHost,
            changeOrigin: true,
            configure: (proxy) => proxy.on('proxyReq', (req) => req.setHeader('origin', devHost)),
          },
        }
      : undefined,
  },
});
