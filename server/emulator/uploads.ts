// The provider's file upload (provider-notes, "File upload"): POST /v1/figure-resource/upload/file
// with a multipart part `file`, stored by ./upload-store.ts and served back at the URL in the answer,
// with Range support, for 7 days.
import busboy from 'busboy';
import { Hono, type Context } from 'hono';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadAllowance } from '../http/upload-quota';
import { creatorOf } from '../identity/creator';
import { byteRange } from '../http/byte-range';
import type { SettingsState } from './settings';
import {
  diskFull,
  megabytes,
  UPLOAD_MEDIA_PREFIX,
  type UploadOutcome,
  type UploadRefusal,
  type UploadStore,
} from './upload-store';

export const UPLOAD_ROUTE = '/v1/figure-resource/upload/file';
/** The multipart framing (boundaries, part headers, other fields) allowed around the file. */
const MULTIPART_SLACK_BYTES = 1024 * 1024;

/** The provider's upload envelope. */
function answer(
  c: Context,
  status: 200 | UploadRefusal['status'],
  code: number,
  message: string,
  result: unknown = null,
  retryAfterSeconds?: number,
) {
  if (retryAfterSeconds) c.header('retry-after', String(retryAfterSeconds));
  return c.json({ code, success: code === 0, message: { global: message }, result }, status);
}

/** The body stopped coming: the client cancelled, closed the tab or lost the connection. */
function isInterrupted(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    message === 'aborted' ||
    message === 'Unexpected end of form'
  );
}

function readMultipart(c: Context, store: UploadStore, allowance: UploadAllowance): Promise<UploadOutcome> {
  return new Promise<UploadOutcome>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': c.req.header('content-type') ?? '' },
        // Browsers send a file name as UTF-8 bytes; busboy's default reads them as Latin-1 ("ZoÃ«").
        defParamCharset: 'utf8',
        limits: { files: 1, fields: 20, parts: 40, fieldSize: 64 * 1024 },
      });
    } catch {
      resolve({
        ok: false,
        status: 400,
        code: 100001,
        message: 'file: send multipart/form-data with a part named "file"',
      });
      return;
    }
    let saving: Promise<UploadOutcome> | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || saving) {
        stream.resume();
        return;
      }
      saving = store.save(stream, info.filename ?? '', allowance);
      saving.catch(() => stream.resume());
    });
    parser.on('error', (error) => reject(error as Error));
    parser.on('close', () => {
      resolve(
        saving ?? {
          ok: false,
          status: 400,
          code: 100001,
          message: 'file: is required (multipart part "file")',
        },
      );
    });
    const body = c.req.raw.body;
    if (!body) {
      resolve({ ok: false, status: 400, code: 100001, message: 'file: is required (multipart part "file")' });
      return;
    }
    // The file is counted by the store; the whole body here, so parts around it (or a body with no
    // file part at all) cannot stream on without end: past the file limit and the framing's slack,
    // reading stops with 413.
    const maxBodyBytes = store.maxBytes + MULTIPART_SLACK_BYTES;
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.byteLength;
        if (seen <= maxBodyBytes) return done(null, chunk);
        resolve({
          ok: false,
          status: 413,
          code: 413,
          message: `The file is larger than ${megabytes(store.maxBytes)}`,
        });
        done(new RangeError('upload body over the limit'));
      },
    });
    pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), counted, parser).catch(
      reject,
    );
  });
}

export function createUploadRoutes(store: UploadStore, settings: SettingsState): Hono {
  const app = new Hono();

  app.post(UPLOAD_ROUTE, async (c) => {
    if (settings.isDisabled('upload')) return c.json({ code: 404, msg: 'Not Found' }, 404);
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? ''))
      return answer(c, 400, 100001, 'file: send multipart/form-data with a part named "file"');
    // A declared length far over the limit is refused before reading anything.
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > store.maxBytes + MULTIPART_SLACK_BYTES)
      return answer(c, 413, 413, `The file is larger than ${megabytes(store.maxBytes)}`);
    // The person the team record names as the upload's creator: their day's allowance.
    const allowance = store.quota.open(creatorOf(c)?.id ?? null);
    // A declared length that cannot fit is refused before reading anything, like one over the limit
    // (the slack is the multipart framing around the file). take() refuses it without charging.
    const SLACK = MULTIPART_SLACK_BYTES;
    const overQuota =
      declared > (await allowance.remaining()) + SLACK ? await allowance.take(declared - SLACK) : undefined;
    if (overQuota)
      return answer(
        c,
        overQuota.status,
        overQuota.status,
        overQuota.message,
        null,
        overQuota.retryAfterSeconds,
      );
    if (declared > store.diskMaxBytes - store.usedBytes() + SLACK)
      return answer(c, 507, 507, diskFull(store.diskMaxBytes));
    let outcome: UploadOutcome;
    try {
      outcome = await readMultipart(c, store, allowance);
    } catch (error) {
      // A cancelled or dropped upload is the sender's choice, not a fault here: answered, not logged.
      if (!isInterrupted(error)) throw error;
      return answer(c, 400, 100001, 'file: the upload was interrupted before it finished');
    }
    if (!outcome.ok)
      return answer(c, outcome.status, outcome.code, outcome.message, null, outcome.retryAfterSeconds);
    const url = `${new URL(c.req.url).origin}${UPLOAD_MEDIA_PREFIX}${outcome.id}`;
    return answer(c, 200, 0, 'success', {
      url,
      fileId: outcome.id.replace(/\..*$/, ''),
      fileName: outcome.fileName,
    });
  });

  // No auth, like the emulator's result media: browsers load these in <img> and <video>.
  app.get(`${UPLOAD_MEDIA_PREFIX}:file`, async (c) => {
    const stored = await store.find(c.req.param('file'));
    if (!stored) return c.json({ code: 404, msg: 'Not Found' }, 404);
    const headers: Record<string, string> = {
      'content-type': stored.type.contentType,
      'cache-control': 'private, max-age=604800, immutable',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      // sandbox: opened as a document, the file gets an origin of its own and runs nothing.
      'content-security-policy': "default-src 'none'; sandbox",
    };
    const range = byteRange(c.req.header('range'), stored.size);
    if (range === 'unsatisfiable')
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'content-range': `bytes */${stored.size}` },
      });
    const { start, end } = range ?? { start: 0, end: stored.size - 1 };
    const length = stored.size === 0 ? 0 : end - start + 1;
    const body =
      length === 0
        ? null
        : (Readable.toWeb(
            createReadStream(stored.path, { start, end }),
          ) as unknown as ReadableStream<Uint8Array>);
    return new Response(body, {
      status: range ? 206 : 200,
      headers: {
        ...headers,
        'content-length': String(length),
        ...(range && { 'content-range': `bytes ${start}-${end}/${stored.size}` }),
      },
    });
  });

  return app;
}
