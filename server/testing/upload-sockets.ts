// Real sockets for the upload tests: a service that reads (and hashes) what it is sent, and a
// browser that streams a body chunked as fast as the server takes it.
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MB = 1024 * 1024;
const UPLOAD = '/v1/figure-resource/upload/file';
export const MULTIPART = 'multipart/form-data; boundary=x';

export interface Upstream {
  url: string;
  server: Server;
  received: () => number;
  requests: { headers: IncomingMessage['headers']; sha: string; complete: boolean }[];
  closed: Promise<void>;
}

/** A service that reads uploads (slowly when `pauseMs`) and answers JSON, or `answer`'s reply. */
export function uploadService(
  options: { pauseMs?: number; answer?: (req: IncomingMessage) => [number, Record<string, string>] } = {},
) {
  let received = 0;
  let closeRequest: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closeRequest = resolve));
  const requests: Upstream['requests'] = [];
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    const entry = { headers: req.headers, sha: '', complete: false };
    requests.push(entry);
    req.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      hash.update(chunk);
      if (options.pauseMs) {
        req.pause();
        setTimeout(() => req.resume(), options.pauseMs);
      }
    });
    req.on('close', closeRequest);
    req.on('end', () => {
      entry.sha = hash.digest('hex');
      entry.complete = true;
      const [status, headers] = options.answer?.(req) ?? [200, { 'content-type': 'application/json' }];
      res.writeHead(status, headers).end(JSON.stringify({ code: 0, result: { url: 'https://x/y.mp4' } }));
    });
  });
  return new Promise<Upstream>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        server,
        received: () => received,
        requests,
        closed,
      }),
    ),
  );
}

/**
 * A browser sending `bytes` chunked (no Content-Length), as fast as the console takes them; it stops
 * sending once an answer arrives. `abortAfter` bytes: it goes away mid-body instead.
 */
export function sendUpload(origin: string, bytes: number, abortAfter?: number) {
  const chunk = Buffer.alloc(256 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
  const hash = createHash('sha256');
  let written = 0;
  let answered = false;
  const req = request(`${origin}${UPLOAD}`, { method: 'POST', headers: { 'content-type': MULTIPART } });
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>(
    (resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
    },
  );
  const pump = () => {
    while (written < bytes && !answered) {
      if (abortAfter !== undefined && written >= abortAfter) return void req.destroy();
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
      written += part.length;
      hash.update(part);
      if (!req.write(part)) return void req.once('drain', pump);
    }
    if (!answered) req.end();
  };
  pump();
  return { answer, written: () => written, sha: () => hash.digest('hex') };
}
