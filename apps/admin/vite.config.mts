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
    },
  },
  build: { outDir: fileURLToPath(new URL('../../dist/admin', import.meta.url)), emptyOutDir: true },
  server: { proxy: { '/api': process.env.VITE_API_BASE ?? 'http://127.0.0.1:3000' } },
});
