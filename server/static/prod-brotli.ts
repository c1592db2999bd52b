// Brotli for the hashed assets: about 15% smaller than gzip for JavaScript, which is most of what the
// first screen downloads. Compressed once at the highest quality on first request and kept in
// memory: hashed files never change under a running server, and the whole build is well under 1 MB.
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { brotliCompress, constants } from 'node:zlib';
import { promisify } from 'node:util';

const compress = promisify(brotliCompress);
const COMPRESSIBLE = /\.(?:m?js|css|svg|json|map|txt|html)$/i;
/**
 * Below this, brotli's saving does not pay for the extra header and work: such files go as they are.
 * Small chunks are many (a route fetches a dozen under 1 KB), and brotli still halves them.
 */
export const BROTLI_MIN_BYTES = 256;
/** The highest quality: each file is compressed once per server, so the time is spent once. */
export const BROTLI_QUALITY = 11;

function acceptsBrotli(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    return name?.trim().toLowerCase() === 'br' && !params.some((p) => /^\s*q=0(?:\.0*)?\s*$/.test(p));
  });
}

export function brotliAssets(root: string, cacheControl: string): MiddlewareHandler {
  const cache = new Map<string, Promise<Uint8Array<ArrayBuffer> | null>>();

  const load = (file: string) => {
    let entry = cache.get(file);
    if (!entry) {
      entry = (async () => {
        const info = await stat(file).catch(() => undefined);
        if (!info?.isFile() || info.size < BROTLI_MIN_BYTES) return null;
        const bytes = await readFile(file);
        const compressed = await compress(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        });
        // A file brotli cannot make smaller goes as it is.
        return compressed.length < bytes.length ? Uint8Array.from(compressed) : null;
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
