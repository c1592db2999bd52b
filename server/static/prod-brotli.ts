// Brotli for the hashed assets: about 15% smaller than gzip for JavaScript, which is most of what the
// first screen downloads. The build writes each one's `.br` beside it at the highest quality
// (precompressPlugin), so a server never spends a first visitor's wait compressing; a file without
// one is compressed on its first request. Either way it is kept in memory: hashed files never change
// under a running server, and the whole build is well under 1 MB.
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { Plugin } from 'vite';
import { brotliCompress, constants } from 'node:zlib';
import { promisify } from 'node:util';

const compress = promisify(brotliCompress);
const COMPRESSIBLE = /\.(?:m?js|css|svg|json|map|txt|html)$/i;
/**
 * Below this, brotli's saving does not pay for the extra header and work: such files go as they are.
 * Small chunks are many (a route fetches a dozen under 1 KB), and brotli still halves them.
 */
export const BROTLI_MIN_BYTES = 256;
/** The highest quality: each file is compressed once, by the build or once per server. */
export const BROTLI_QUALITY = 11;

function acceptsBrotli(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    return name?.trim().toLowerCase() === 'br' && !params.some((p) => /^\s*q=0(?:\.0*)?\s*$/.test(p));
  });
}

async function brotliOf(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer> | null> {
  const compressed = await compress(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  // A file brotli cannot make smaller goes as it is.
  return compressed.length < bytes.length ? Uint8Array.from(compressed) : null;
}

/** The brotli of a file as the build wrote it beside the file, or undefined when there is none. */
async function prebuilt(file: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const bytes = await readFile(`${file}.br`).catch(() => undefined);
  return bytes && Uint8Array.from(bytes);
}

/** Writes `<file>.br` beside each hashed asset of the browser build that brotli makes smaller. */
export function precompressPlugin(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter(
        (name) => name.startsWith('assets/') && COMPRESSIBLE.test(name),
      );
      await Promise.all(
        files.map(async (name) => {
          const bytes = await readFile(join(dir, name));
          if (bytes.length < BROTLI_MIN_BYTES) return;
          const compressed = await brotliOf(bytes);
          if (compressed) await writeFile(join(dir, `${name}.br`), compressed);
        }),
      );
    },
  };
}

export function brotliAssets(root: string, cacheControl: string): MiddlewareHandler {
  const cache = new Map<string, Promise<Uint8Array<ArrayBuffer> | null>>();

  const load = (file: string) => {
    let entry = cache.get(file);
    if (!entry) {
      entry = (async () => {
        const info = await stat(file).catch(() => undefined);
        if (!info?.isFile() || info.size < BROTLI_MIN_BYTES) return null;
        return (await prebuilt(file)) ?? brotliOf(await readFile(file));
      })();
      cache.set(file, entry);
      // Only real files stay cached: probes for missing names must not grow the map.
      void entry.then(
        (bytes) => bytes ?? cache.delete(file),
        () => cache.delete(file),
      );
    }
    return entry;
  };

  return async (c, next) => {
    const path = c.req.path;
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !COMPRESSIBLE.test(path)) return next();
    if (!acceptsBrotli(c.req.header('accept-encoding')) || c.req.header('range')) return next();
    let relative: string;
    try {
      relative = normalize(decodeURIComponent(path));
    } catch {
      return next();
    }
    const file = join(root, relative);
    if (!file.startsWith(root + sep)) return next();
    const body = await load(file);
    if (!body) return next();
    // Hono drops the body of HEAD answers itself.
    return c.body(body, 200, {
      'content-type': getMimeType(file) ?? 'application/octet-stream',
      'content-encoding': 'br',
      'content-length': String(body.length),
      vary: 'Accept-Encoding',
      'cache-control': cacheControl,
    });
  };
}
