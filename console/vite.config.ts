// The console is served by the reference server under /console/: hashed assets, no inline script
// or style, so that the server's Content-Security-Policy can allow only its own files.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: process.env.CONSOLE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    // Never inline an asset as a data: URL: the policy allows images and fonts from the server only.
    assetsInlineLimit: 0,
    // The preload helper is bundled in the entry script; nothing is injected inline.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
