import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// The production server (`npm start`) built ahead into plain JavaScript: run under tsx it carried a
// TypeScript loader thread and a transform cache, ~60 MB of resident memory at rest (measured
// 147 MB against 89 MB). Dependencies stay in node_modules (Vite externalises them for SSR builds).
const emulatorAssets = fileURLToPath(new URL('./server/emulator/assets/', import.meta.url));

/** The emulator's sample media (and the demo's, in `demo/`) sit beside the bundle, where `media.ts` looks for them. */
function emulatorAssetsPlugin(): Plugin {
  return {
    name: 'emulator-assets',
    generateBundle() {
      for (const name of readdirSync(emulatorAssets, { recursive: true, encoding: 'utf8' })) {
        if (name === 'README.md' || statSync(emulatorAssets + name).isDirectory()) continue;
        this.emitFile({
          type: 'asset',
          fileName: `assets/${name}`,
          source: readFileSync(emulatorAssets + name),
        });
      }
    },
  };
}

export default defineConfig({
  plugins: [emulatorAssetsPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: 'server/entry/prod.ts',
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
  },
});
