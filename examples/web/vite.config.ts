import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** examples/: the app imports the typed documents codegen writes to examples/generated. */
const EXAMPLES_DIR = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  plugins: [react()],
  // Relative asset URLs: dist/ works from any path and from a plain static server.
  base: './',
  server: { port: 5173, fs: { allow: [EXAMPLES_DIR] } },
  build: { chunkSizeWarningLimit: 1024 },
});
