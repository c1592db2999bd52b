import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { consoleServerPlugin } from './server/vite-plugin';

export default defineConfig({
  plugins: [react(), tailwindcss(), consoleServerPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // Only VITE_-prefixed variables can reach the bundle; API_TOKEN is never one of them.
  envPrefix: 'VITE_',
  server: { host: process.env.HOST ?? 'localhost', port: 5173 },
  preview: { host: process.env.HOST ?? 'localhost', port: 4173 },
  build: { target: 'es2022', sourcemap: false },
});
