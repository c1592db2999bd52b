// `GET /__console/preview?url=<image>`: a pasted external image, fetched by the server so the
// browser shows it from its own origin (the page's CSP allows images from 'self', not from any
// host). The fetch goes through the outbound guard (public addresses only, redirects judged
// again), is given PREVIEW_TIMEOUT_MS and at most PREVIEW_MAX_BYTES, and only a raster image the
// sniffer recognises by its first bytes (JPEG, PNG, WebP, GIF, BMP; never SVG or HTML) is served,
// with that type, nosniff and a sandboxing CSP. Anything else is a JSON `{ reason }` in plain
// words, which the form shows instead of the thumbnail. Signed-in people only
// (server/identity/access.ts).
import { Hono } from 'hono';
import { sniffMediaType } from '../../src/api/media-type';
import { NO_STORE } from '../http/no-store';

export const PREVIEW_PATH = '/__console/preview';
const PREVIEW_MAX_BYTES = 4 * 1024 * 1024;
const PREVIEW_TIMEOUT_MS = 8000;

/** Reads at most `max` bytes; undefined when the body is larger. */
async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export function createPreviewRoutes(
  fetch: typeof globalThis.fetch,
  { maxBytes = PREVIEW_MAX_BYTES, timeoutMs = PREVIEW_TIMEOUT_MS } = {},
) {
  const app = new Hono();
  app.get(PREVIEW_PATH, async (c) => {
    const refuse = (status: 400 | 413 | 415 | 502 | 504, reason: string) =>
      c.json({ reason }, status, NO_STORE);
    let url: URL;
    try {
      url = new URL(c.req.query('url') ?? '');
    } catch {
      return refuse(400, 'This is not a web address.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return refuse(400, 'Only http:// and https:// addresses can be previewed.');
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'image/*' } });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        return refuse(504, `The address did not answer within ${timeoutMs / 1000} seconds.`);
      // The guard's refusal and a network failure read the same (it must not map a network).
      return refuse(502, 'The console cannot fetch this address (it is not public, or it does not answer).');
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return refuse(502, `The address answered ${response.status} instead of an image.`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      return refuse(413, `The image is larger than ${maxBytes / (1024 * 1024)} MB, too large to preview.`);
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCapped(response.body, maxBytes);
    } catch {
      return refuse(504, `The address did not answer within ${timeoutMs / 1000} seconds.`);
    }
    if (!bytes)
      return refuse(413, `The image is larger than ${maxBytes / (1024 * 1024)} MB, too large to preview.`);
    const type = sniffMediaType(bytes.subarray(0, 64));
    if (!type || type.kind !== 'image')
      return refuse(415, 'The address does not point to a JPG, PNG, WebP, GIF or BMP image.');
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': type.contentType,
      'content-length': String(bytes.byteLength),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=300',
    });
  });
  return app;
}
