import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    alias: {
      '@hearth/contracts': fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url)),
      '@hearth/domain/money': fileURLToPath(new URL('../../libs/domain/money/src/index.ts', import.meta.url)),
      '@hearth/domain/budget-math': fileURLToPath(new URL('../../libs/domain/budget-math/src/index.ts', import.meta.url)),
      '@hearth/domain/import-formats': fileURLToPath(new URL('../../libs/domain/import-formats/src/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/admin', import.meta.url)),
    emptyOutDir: true,
    // The domain libraries are pure: what the app does not use of them (import-formats' parsers) is left out.
    rolldownOptions: { treeshake: { moduleSideEffects: (id: string) => !id.includes('/libs/domain/') } },
  },
  // The dev server passes the API's paths to it (HEARTH_API, else a local `npm start`): the app and the API share one
  // origin. The same paths as docker/nginx/hearth.conf.template: the API, password sign-in and sign-out, SSO.
  server: { proxy: Object.fromEntries(['/api', '/auth', '/sessions'].map((path) => [path, process.env.HEARTH_API ?? 'http://127.0.0.1:3000'])) },
});
