// Uploads need a quota: without one, 10 × 100 MB went through in seconds and 1.1 GB was kept for 7
// days on the database's disk. Attacked through the whole Node side on the emulator, as a teammate's browser
// reaches it, and through the proxy to a real service over sockets.
import { asPerson } from '../testing/identity';
import { serve } from '@hono/node-server';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asset } from '../emulator/media';
import { UPLOAD_MAX_AGE_MS, UploadStore } from '../emulator/upload-store';
import { UPLOAD_ROUTE } from '../emulator/uploads';
import type { NodeApp } from '../app/node-app';
import { createProxyApp } from '../proxy/proxy';
import { testNodeApp, TEST_ORIGIN as ORIGIN } from '../testing/test-node-app';
import { MULTIPART, uploadService, type Upstream } from '../testing/upload-sockets';
import { databaseUploadTallies } from '../limits/upload-tallies';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { memoryUploadTallies, UPLOAD_SET_ASIDE_BYTES, UploadQuota, type UploadTallies } from './upload-quota';

const MB = 1024 * 1024;

const nodeSide = testNodeApp('upload-quota');
afterEach(async () => {
  await nodeSide.close();
  vi.useRealTimers();
});
afterAll(nodeSide.remove);

/** The Node side on the emulator, with limits in bytes so the bounds can be hit exactly. */
const consoleWith = (limits: { quota?: number; disk?: number }) =>
  nodeSide.open({
    options: {
      emulator: {
        ...(limits.quota && { uploadQuotaBytesPerDay: limits.quota }),
        ...(limits.disk && { uploadDiskMaxBytes: limits.disk }),
      },
    },
  });

const PNG = asset('reference.png');
/** A PNG of exactly `size` bytes: the sample's first bytes (its type), then zeros. */
function png(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PNG.subarray(0, Math.min(size, 64)));
  return bytes;
}

async function upload(app: NodeApp, bytes: Uint8Array<ArrayBuffer>, user = 'Ana', name = 'a.png') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await app.app.request(
    `${ORIGIN}${UPLOAD_ROUTE}`,
    {
      method: 'POST',
      body: form,
    },
    asPerson(user),
  );
  const body = (await res.json()) as {
    code: number;
    message: { global: string };
    result: { url: string } | null;
  };
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
}

/** An upload whose body arrives 10 KB at a time with pauses, as a slow browser sends it. */
async function slowUpload(app: NodeApp, size: number) {
  const file = png(size);
  const head = new TextEncoder().encode(
    '--x\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\n' +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = new TextEncoder().encode('\r\n--x--\r\n');
  let sent = -1;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 3));
      if (sent < 0) {
        controller.enqueue(head);
        sent = 0;
      } else if (sent < size) {
        controller.enqueue(file.subarray(sent, sent + 10_000));
        sent += 10_000;
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
  const res = await app.app.request(
    `${ORIGIN}${UPLOAD_ROUTE}`,
    {
      method: 'POST',
      headers: { 'content-type': MULTIPART },
      body,
      duplex: 'half',
    } as RequestInit,
    asPerson('Ana'),
  );
  return { status: res.status };
}

const uploadsDir = () => join(nodeSide.dataDir, 'uploads');
const storedFiles = () => readdirSync(uploadsDir()).filter((name) => !name.endsWith('.part'));

describe.each([
  ['in memory', () => memoryUploadTallies()],
  ['in the database', () => databaseUploadTallies(testDatabase())],
])('UploadQuota with tallies %s', (_where, tallies: () => UploadTallies) => {
  beforeEach(async () => {
    await resetTestDatabase();
  });

  it('takes exactly the day’s bytes, refuses one more, gives back what a refused upload took', async () => {
    let now = Date.UTC(2026, 10, 25, 12);
    const quota = new UploadQuota(1000, () => now, tallies());
    const first = quota.open('Ana');
    expect(await first.take(600)).toBeUndefined();
    const second = quota.open('Ana');
    expect(await second.take(400)).toBeUndefined(); // 1000 of 1000: the bound itself
    const refused = await quota.open('Ana').take(1);
    expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 12 * 3600 });
    expect(refused?.message).toMatch(/^Daily upload limit: you have uploaded 0 MB of 0 MB today/);
    await second.release();
    expect(await quota.used('Ana')).toBe(600);
    expect(await quota.open('Ana').take(400)).toBeUndefined();
    // Everyone has their own day; uploads without a name share one.
    expect(await quota.open('Bo').take(1000)).toBeUndefined();
    expect(await quota.open(null).take(1000)).toBeUndefined();
    expect((await quota.open(null).take(1))?.message).toMatch(
      /uploads without a name .* share one allowance/,
    );
    // The next day (UTC) starts from nothing.
    now = Date.UTC(2026, 10, 26);
    expect(await quota.open('Ana').take(1000)).toBeUndefined();
  });

  it('sets aside a few megabytes at a time, and gives back what a kept upload did not use', async () => {
    const quota = new UploadQuota(100 * MB, Date.now, tallies());
    const allowance = quota.open('Ana');
    for (let i = 0; i < 3; i++) expect(await allowance.take(64 * 1024)).toBeUndefined();
    expect(await quota.used('Ana')).toBe(UPLOAD_SET_ASIDE_BYTES);
    expect(await allowance.remaining()).toBe(100 * MB - 3 * 64 * 1024);
    await allowance.keep();
    expect(await quota.used('Ana')).toBe(3 * 64 * 1024);
  });

  it('near the limit sets aside only what the chunk needs, so a file that fits exactly is kept', async () => {
    const limit = UPLOAD_SET_ASIDE_BYTES + 10;
    const quota = new UploadQuota(limit, Date.now, tallies());
    const allowance = quota.open('Ana');
    expect(await allowance.take(UPLOAD_SET_ASIDE_BYTES)).toBeUndefined();
    expect(await allowance.take(10)).toBeUndefined(); // exactly the limit
    expect(await allowance.take(1)).toMatchObject({ status: 429 }); // one byte past it
    await allowance.keep();
    expect(await quota.used('Ana')).toBe(limit);
  });
});

describe('UploadQuota on two instances', () => {
  it('counts one day for a person uploading through two instances on one database', async () => {
    await resetTestDatabase();
    const one = new UploadQuota(1000, Date.now, databaseUploadTallies(testDatabase()));
    const two = new UploadQuota(1000, Date.now, databaseUploadTallies(testDatabase()));
    const [a, b] = [one.open('Ana'), two.open('Ana')];
    expect(await a.take(500)).toBeUndefined();
    expect(await b.take(500)).toBeUndefined(); // 1000 of 1000 across both
    expect(await two.open('Ana').take(1)).toMatchObject({ status: 429 });
    expect(await one.open('Ana').take(1)).toMatchObject({ status: 429 });
    await a.release();
    expect(await one.used('Ana')).toBe(500);
    expect(await two.open('Ana').take(500)).toBeUndefined();
  });
});

describe('upload quota on the emulator (whole Node side)', () => {
  it('accepts exactly the daily quota per person and refuses one byte more, with a message for the form', async () => {
    const app = await consoleWith({ quota: 3000 });
    expect((await upload(app, png(1000))).status).toBe(200);
    expect((await upload(app, png(2000))).status).toBe(200); // 3000 of 3000
    const past = await upload(app, png(1));
    expect(past.status).toBe(429);
    expect(past.body.code).toBe(429);
    expect(past.body.message.global).toMatch(
      /^Daily upload limit: you have uploaded 0 MB of 0 MB today, and this file does not fit in what is left\. It starts again at 00:00 UTC/,
    );
    expect(Number(past.retryAfter)).toBeGreaterThan(0);
    // Another person has a day of their own; the refused upload left nothing behind.
    expect((await upload(app, png(3000), 'Bo')).status).toBe(200);
    expect(storedFiles()).toHaveLength(3);
  });

  it('refuses the issue’s ten uploads in a row past the quota, keeping only what fits', async () => {
    const app = await consoleWith({ quota: 3 * 100_000 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await upload(app, png(100_000))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(storedFiles()).toHaveLength(3);
  });

  it('charges uploads running side by side as they stream: together they cannot pass the quota', async () => {
    const app = await consoleWith({ quota: 150_000 });
    // Both under way at once, 10 KB every few milliseconds each: each fits alone, not both together.
    const answers = await Promise.all([slowUpload(app, 100_000), slowUpload(app, 100_000)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    // The refused one gave its bytes back: 50,000 are left.
    expect((await upload(app, png(50_000))).status).toBe(200);
    expect((await upload(app, png(1))).status).toBe(429);
  });

  it('gives back what a refused file took (a text file named .png)', async () => {
    const app = await consoleWith({ quota: 1000 });
    const text = new TextEncoder().encode('x'.repeat(1000));
    expect((await upload(app, new Uint8Array(text), 'Ana', 'notes.png')).status).toBe(400);
    expect((await upload(app, png(1000))).status).toBe(200);
  });

  it('refuses a declared length that cannot fit before reading the body', async () => {
    const app = await consoleWith({ quota: 1000 });
    let pulled = 0;
    // 3 MB, as declared; read whole, it would be pulled to the end.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
        if (pulled >= 3 * 1024 * 1024) controller.close();
      },
    });
    const res = await app.app.request(
      `${ORIGIN}${UPLOAD_ROUTE}`,
      {
        method: 'POST',
        headers: {
          'content-type': MULTIPART,
          'content-length': String(3 * 1024 * 1024),
        },
        body,
        duplex: 'half',
      } as RequestInit,
      asPerson('Ana'),
    );
    expect(res.status).toBe(429);
    expect(pulled).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it('holds the folder to UPLOAD_DISK_MAX_MB for everyone together: exactly full, then 507', async () => {
    const app = await consoleWith({ disk: 5000 });
    expect((await upload(app, png(3000), 'Ana')).status).toBe(200);
    expect((await upload(app, png(2000), 'Bo')).status).toBe(200); // 5000 of 5000
    const full = await upload(app, png(1), 'Cy');
    expect(full.status).toBe(507);
    expect(full.body.message.global).toMatch(
      /^The console's upload storage is full \(0 MB of files, each kept 7 days\)/,
    );
    expect(storedFiles()).toHaveLength(2);
  });

  it('counts what an earlier run left on disk, and frees what expires', async () => {
    mkdirSync(uploadsDir(), { recursive: true });
    const old = Date.now() / 1000 - UPLOAD_MAX_AGE_MS / 1000 - 3600;
    writeFileSync(join(uploadsDir(), `${'a'.repeat(32)}.png`), png(4000));
    writeFileSync(join(uploadsDir(), `${'b'.repeat(32)}.png`), png(4000));
    utimesSync(join(uploadsDir(), `${'b'.repeat(32)}.png`), old, old);
    const app = await consoleWith({ disk: 5000 });
    // The expired file is swept at start; the other still counts: 1000 bytes are left.
    expect((await upload(app, png(1001))).status).toBe(507);
    expect((await upload(app, png(1000))).status).toBe(200);
    expect(readdirSync(uploadsDir())).not.toContain(`${'b'.repeat(32)}.png`);
  });
});

describe('expired uploads are swept', () => {
  const expiredFile = () => {
    mkdirSync(uploadsDir(), { recursive: true });
    const path = join(uploadsDir(), `${'c'.repeat(32)}.mp4`);
    writeFileSync(path, new Uint8Array(10));
    const old = Date.now() / 1000 - UPLOAD_MAX_AGE_MS / 1000 - 60;
    utimesSync(path, old, old);
    const stalePart = join(uploadsDir(), `${'d'.repeat(32)}.part`);
    writeFileSync(stalePart, new Uint8Array(10));
    utimesSync(stalePart, Date.now() / 1000 - 3601, Date.now() / 1000 - 3601);
    // Six days and 23 hours old: kept.
    const young = join(uploadsDir(), `${'e'.repeat(32)}.mp4`);
    writeFileSync(young, new Uint8Array(10));
    const almost = Date.now() / 1000 - UPLOAD_MAX_AGE_MS / 1000 + 3600;
    utimesSync(young, almost, almost);
  };

  it('at start, with no upload needed', async () => {
    expiredFile();
    await consoleWith({});
    await vi.waitFor(() => expect(readdirSync(uploadsDir())).toEqual([`${'e'.repeat(32)}.mp4`]), {
      timeout: 10_000,
    });
  });

  it('every hour', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // Each sweep counted as it starts, so a quiet hour is seen, not waited out.
    const sweeps = vi.spyOn(UploadStore.prototype, 'sweep');
    try {
      await consoleWith({});
      // Nothing to sweep at start (the first sweep is done before the file exists); a file that
      // expires later goes within the hour.
      await vi.waitFor(() => expect(sweeps).toHaveBeenCalledOnce(), { timeout: 10_000 });
      await sweeps.mock.results[0]!.value;
      expiredFile();
      vi.advanceTimersByTime(59 * 60 * 1000);
      expect(sweeps).toHaveBeenCalledOnce();
      expect(readdirSync(uploadsDir())).toHaveLength(3);
      vi.advanceTimersByTime(60 * 1000);
      expect(sweeps).toHaveBeenCalledTimes(2);
      await vi.waitFor(() => expect(readdirSync(uploadsDir())).toEqual([`${'e'.repeat(32)}.mp4`]), {
        timeout: 10_000,
      });
    } finally {
      sweeps.mockRestore();
    }
  });
});

describe('upload quota on the proxy to a real service (sockets)', () => {
  let service: Upstream;
  let server: Server;
  let origin: string;
  let quota: UploadQuota;

  beforeEach(async () => {
    service = await uploadService();
    quota = new UploadQuota(300_000);
    const app = new Hono();
    app.route('/', createProxyApp({ apiBaseUrl: service.url, apiToken: 'token', uploadQuota: quota }));
    server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(started as Server),
      );
    });
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await Promise.all([server, service.server].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  /** A browser's upload of `bytes` (Content-Length declared unless `chunked`), as Ana. */
  function send(bytes: number, chunked = false) {
    return new Promise<{ status: number; text: string; retryAfter?: string }>((resolve, reject) => {
      const req = httpRequest(`${origin}${UPLOAD_ROUTE}`, {
        method: 'POST',
        headers: {
          'content-type': MULTIPART,
          ...(!chunked && { 'content-length': String(bytes) }),
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, retryAfter: res.headers['retry-after'] as string }),
        );
      });
      // Written in pieces, as the console takes them; the answer may come before the end.
      const piece = Buffer.alloc(16 * 1024);
      let written = 0;
      const pump = () => {
        while (written < bytes) {
          const part = piece.subarray(0, Math.min(piece.length, bytes - written));
          written += part.length;
          if (!req.write(part)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
  }

  it('forwards exactly the day’s bytes and refuses one more, before the service hears of it', async () => {
    expect((await send(200_000)).status).toBe(200);
    expect((await send(100_000, true)).status).toBe(200); // 300,000 of 300,000, streamed without a length
    const requests = service.requests.length;
    const past = await send(1);
    expect(past.status).toBe(429);
    expect(JSON.parse(past.text)).toMatchObject({
      code: 429,
      msg: expect.stringMatching(/^Daily upload limit/),
    });
    expect(Number(past.retryAfter)).toBeGreaterThan(0);
    expect(service.requests).toHaveLength(requests);
  });

  it('cuts a chunked upload off the moment it passes the quota', async () => {
    const past = await send(400_000, true);
    expect(past.status).toBe(429);
    expect(service.received()).toBeLessThanOrEqual(300_000);
    // What was cut off is given back: the whole day is still there.
    expect(await quota.used('Ana')).toBe(0);
    expect((await send(300_000)).status).toBe(200);
  });
});
