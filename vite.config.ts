import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { consoleServerPlugin } from './server/vite-plugin';

// The same Host allow-list as `npm start` (server/host-guard.ts); Vite allows loopback and IPs itself.
const allowedHosts = [
  ...(process.env.ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
  ...(process.env.PUBLIC_BASE_URL ? [new URL(process.env.PUBLIC_BASE_URL).hostname] : []),
];

export default defineConfig({
  plugins: [react(), tailwindcss(), consoleServerPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // Only VITE_-prefixed variables can reach the bundle; API_TOKEN is never one of them.
  envPrefix: 'VITE_',
  server: { host: process.env.HOST ?? 'localhost', port: 5173, allowedHosts },
  preview: { host: process.env.HOST ?? 'localhost', port: 4173, allowedHosts },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          // Image to video reuses Create image's fields (image rows, prompt, radio cards). Kept in the Create image
          // form's chunk rather than a shared chunk of their own, so the first screen fetches no extra file.
          groups: [
            {
              name: 'image-generate-form',
              test: /src\/(features\/image-generate\/(?!image-generate-screen)|components\/ui\/radio-cards)/,
            },
          ],
        },
      },
    },
  },
});
