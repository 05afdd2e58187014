import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The API lives on the same origin as the app, so the dev server proxies every non-asset path
// to a running `payback serve` (PAYBACK_DEV_API, default http://127.0.0.1:8080).
const api = process.env.PAYBACK_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The binary embeds dist/; hashed names let it serve assets as immutable.
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: {
      // Everything that is not Vite's own (the app's modules, its client, the index page).
      '^/(?!src/|@|node_modules/|index\\.html$|$).*': { target: api, changeOrigin: true },
    },
  },
});
