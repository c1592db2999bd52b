// Serving a kept file from the console's own origin: behind the sign-in (a viewer may read),
// seekable (one byte range, 206 with Content-Range), cached by the browser for good (the ETag is
// the file's SHA-256, and a kept file never changes), typed from its own bytes (./sniff.ts) and
// inert whatever it holds: nosniff, and a Content-Security-Policy that sandboxes it and loads
// nothing, so an HTML or SVG page disguised as a result runs no script when opened.
import { Readable } from 'node:stream';
import { contentDisposition } from '../../src/api/download-name';
import type { ResultCopyRow } from './copy-rows';
import { servedAs } from './sniff';
import type { ResultStore } from './store';
import { byteRange } from '../http/byte-range';

const etagMatches = (header: string | null, etag: string) =>
  Boolean(header) &&
  header!.split(',').some((entry) => {
    const tag = entry.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });

/** A kept row's file as an HTTP answer to `request` (GET or HEAD). `fileName`: a download's name. */
export async function serveKept(
  request: Request,
  row: ResultCopyRow,
  store: ResultStore,
  fileName?: string,
): Promise<Response> {
  const size = Number(row.size ?? 0);
  const etag = `"${row.sha256}"`;
  const served = servedAs(row.content_type);
  // Written inline, not as module constants: a value made once at load is out of reach of a
  // per-test mutation run (docs/testing.md, "Mutation testing").
  const headers = new Headers({
    etag,
    'cache-control': 'private, max-age=31536000, immutable',
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'content-type': served.type,
  });
  if (row.kept_at) headers.set('last-modified', row.kept_at.toUTCString());
  if (fileName || !served.inline)
    headers.set(
      'content-disposition',
      fileName ? contentDisposition(fileName) : `attachment; filename="${row.role}-${row.idx}"`,
    );
  if (etagMatches(request.headers.get('if-none-match'), etag))
    return new Response(null, { status: 304, headers });
  // S3, a large file: a redirect to a short-lived presigned URL, never cached (the URL expires).
  // Only images and videos whose bytes were recognised go there (never SVG, text or an unknown
  // file): S3 cannot send nosniff or this sandbox, so anything a browser could run stays here.
  const presigned =
    served.inline && /^(image|video)\//.test(served.type) && store.redirectFor
      ? await store.redirectFor(row.store_key!, size, {
          contentType: served.type,
          contentDisposition: headers.get('content-disposition') ?? undefined,
        })
      : undefined;
  if (presigned)
    return new Response(null, {
      status: 302,
      headers: { location: presigned, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    });
  const ifRange = request.headers.get('if-range');
  const range = ifRange && ifRange !== etag ? undefined : byteRange(request.headers.get('range'), size);
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const length = range ? range.end - range.start + 1 : size;
  headers.set('content-length', String(length));
  if (range) headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  const object = await store.get(row.store_key!, range ?? (size ? { start: 0, end: size - 1 } : undefined));
  if (!object)
    return Response.json({ code: 404, msg: 'The kept file is missing from the store' }, { status: 404 });
  if (!length) {
    object.body.destroy();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(object.body) as ReadableStream<Uint8Array>, { status, headers });
}
