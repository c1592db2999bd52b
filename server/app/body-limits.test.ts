// Every route of the Node side that takes a body has a limit that fits it, enforced while the body
// streams. The routes are read from the app itself, on both backends: a route added
// without an entry in server/app/body-limits.ts fails here. Each one is sent, in chunks with no
// Content-Length, exactly its limit (not refused for size) and one byte more (413), and a body far
// past its limit is cut off just past it, never read whole.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/api/paths';
import { UPLOAD_PATH } from '../../src/api/upload';
import { BODY_METHODS, type BodyMethod } from '../http/body-limits';
import { asPerson } from '../testing/identity';
import { oversizedChunkedBody } from '../testing/oversized-body';
import { testNodeApp } from '../testing/test-node-app';
import type { NodeApp } from './node-app';

const server = testNodeApp('body-limits-test');
afterEach(() => server.close());
afterAll(server.remove);

const ADMIN = asPerson('Walker', 'admin');
const UPLOAD_MAX_MB = 1;
// The proxy's service: reads whatever it is sent and answers an empty success.
let service: Server;
let serviceUrl = '';
beforeAll(async () => {
  service = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"code":0,"msg":"ok","data":[]}'),
    );
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => service.close(resolve)));
const BACKENDS = {
  emulator: () => ({}),
  proxy: () => ({ API_BASE_URL: serviceUrl, API_TOKEN: 'body-limits-token' }),
};

/** Registered as `app.all`/`app.use` (middleware, catch-all 404s): no route of their own to walk. */
const MIDDLEWARE_OR_CATCH_ALL =
  /^\/(\*|__console\/(audit|tasks|requests|boards|stars|tokens|shares)(\/\*)?|callbacks(\/:secret)?(\/\*)?|emulator\/settings|v1\/\*)$/;
/** What the proxy's `ALL /v1/*` forwards with a body: the contract's creations and the upload. */
const PROXIED_POSTS = [
  API_PATHS.imageGenerate,
  API_PATHS.videoTranslate,
  API_PATHS.imageToVideo,
  UPLOAD_PATH,
];

/** Each route of the app that takes a body, once: `POST /__console/tasks/zip`. */
function bodyRoutes(nodeApp: NodeApp): { method: BodyMethod; path: string }[] {
  const seen = new Map<string, { method: BodyMethod; path: string }>();
  for (const { method, path } of nodeApp.app.routes) {
    if (method === 'ALL') {
      expect(path, `app.all('${path}') takes any method: give it one, or review it here`).toMatch(
        MIDDLEWARE_OR_CATCH_ALL,
      );
      continue;
    }
    if ((BODY_METHODS as string[]).includes(method))
      seen.set(`${method} ${path}`, { method: method as BodyMethod, path });
  }
  if (nodeApp.emulator === undefined)
    for (const path of PROXIED_POSTS) seen.set(`POST ${path}`, { method: 'POST', path });
  return [...seen.values()];
}

const concrete = (path: string) => path.replace(':secret', server.secret).replace(/:\w+/g, 'x1');

const UPLOAD_HEAD =
  '--b\r\ncontent-disposition: form-data; name="file"; filename="a.mp4"\r\ncontent-type: video/mp4\r\n\r\n';
const UPLOAD_TAIL = '\r\n--b--\r\n';
const UPLOAD_FRAMING = UPLOAD_HEAD.length + UPLOAD_TAIL.length;

/** A body of exactly `bytes` bytes the route reads as what it expects (JSON, or a multipart file). */
function bodyOf(path: string, bytes: number): { type: string; text: string } {
  if (path === UPLOAD_PATH)
    return {
      type: 'multipart/form-data; boundary=b',
      // An MP4 as the emulator sniffs one (`ftyp` at byte 4), then filler.
      text: UPLOAD_HEAD + 'aaaaftypisom'.padEnd(bytes - UPLOAD_FRAMING, 'a') + UPLOAD_TAIL,
    };
  return { type: 'application/json', text: '{}' + ' '.repeat(bytes - 2) };
}

/**
 * One byte over, as each route counts: the proxy counts an upload's whole body, the emulator its
 * file (with room for the framing around it), so there the file itself is one byte past the limit.
 */
const overOf = (path: string, limit: number) =>
  bodyOf(path, path === UPLOAD_PATH ? limit + 1 + UPLOAD_FRAMING : limit + 1);

function chunked(text: string, chunkBytes = 16 * 1024): RequestInit {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunkBytes)
        controller.enqueue(bytes.subarray(at, at + chunkBytes));
      controller.close();
    },
  });
  return { body, duplex: 'half' } as RequestInit;
}

for (const [backend, env] of Object.entries(BACKENDS)) {
  describe(`every route that takes a body (${backend})`, () => {
    it('has a limit of its own, answers 413 one byte past it and takes exactly it', async () => {
      const nodeApp = await server.open({ env: { ...env(), UPLOAD_MAX_MB: String(UPLOAD_MAX_MB) } });
      const routes = bodyRoutes(nodeApp);
      expect(routes.length).toBeGreaterThan(8);
      for (const { method, path } of routes) {
        const url = concrete(path);
        const rule = nodeApp.bodyLimits!.ruleFor(method, url);
        expect(rule, `${method} ${path} has no entry in server/app/body-limits.ts`).toBeDefined();
        const limit = rule!.maxBytes;
        const send = (body: { type: string; text: string }) =>
          server.request(
            url,
            { method, headers: { 'content-type': body.type }, ...chunked(body.text) },
            ADMIN,
          );
        const over = await send(overOf(path, limit));
        expect(over.status, `${method} ${path}, ${limit} + 1 bytes`).toBe(413);
        const exact = await send(bodyOf(path, limit));
        expect(exact.status, `${method} ${path}, exactly ${limit} bytes`).not.toBe(413);
        await exact.body?.cancel();
      }
    });

    it('cuts a body far past the limit off while it streams, on every route', async () => {
      const nodeApp = await server.open({ env: { ...env(), UPLOAD_MAX_MB: String(UPLOAD_MAX_MB) } });
      for (const { method, path } of bodyRoutes(nodeApp)) {
        const url = concrete(path);
        const limit = nodeApp.bodyLimits!.limitFor(method, url);
        const attack = oversizedChunkedBody(limit + 8 * 1024 * 1024);
        const type = bodyOf(path, 300).type;
        const response = await server.request(
          url,
          { ...attack.init, method, headers: { 'content-type': type } },
          ADMIN,
        );
        expect(response.status, `${method} ${path}`).toBe(413);
        // An upload's framing may take 1 MB beside its file on the emulator; a chunk or two in flight.
        const slack = (path === UPLOAD_PATH ? 2 : 1) * 1024 * 1024;
        expect(attack.pulledBytes(), `${method} ${path} read ${attack.pulledBytes()} bytes`).toBeLessThan(
          limit + slack,
        );
      }
    });
  });
}

describe('a route the table does not name', () => {
  it('gets the small fallback, so nothing is unbounded', async () => {
    const nodeApp = await server.open();
    expect(nodeApp.bodyLimits!.ruleFor('POST', '/__console/not-yet-written')).toBeUndefined();
    const attack = oversizedChunkedBody();
    const response = await server.request(
      '/__console/not-yet-written',
      { ...attack.init, headers: { 'content-type': 'application/json' } },
      ADMIN,
    );
    expect(response.status).toBe(413);
    expect(attack.pulledBytes()).toBeLessThan(1024 * 1024);
  });
});

describe('JSON-only routes', () => {
  it('refuse a text/plain body (what a cross-site form can send) with 415', async () => {
    await server.open();
    const response = await server.request(
      '/__console/tasks/hidden',
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ ids: ['a'], hidden: true }),
      },
      ADMIN,
    );
    expect(response.status).toBe(415);
  });
});

// One cross-site rule for every change, whichever backend answers (server/http/same-site.ts).
for (const [backend, env] of Object.entries(BACKENDS)) {
  describe(`a request another site's page makes (${backend})`, () => {
    it('is refused with 403 on every route that takes a body, marked cross-site or same-site', async () => {
      const nodeApp = await server.open({ env: { ...env(), UPLOAD_MAX_MB: String(UPLOAD_MAX_MB) } });
      for (const { method, path } of bodyRoutes(nodeApp)) {
        for (const site of ['cross-site', 'same-site']) {
          const body = bodyOf(path, 300);
          const response = await server.request(
            concrete(path),
            { method, headers: { 'content-type': body.type, 'sec-fetch-site': site }, body: body.text },
            ADMIN,
          );
          // The service POSTs to the inbox's secret path, never a browser: the secret lets it in.
          if (path === '/callbacks/:secret') expect(response.status, `${method} ${path}`).not.toBe(403);
          else expect(response.status, `${method} ${path} (${site})`).toBe(403);
        }
      }
      expect(await server.database.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    });

    it('refuses a creation and an upload, and takes them from the console itself', async () => {
      await server.open({ env: env() });
      const create = (site: string) =>
        server.request(
          API_PATHS.imageGenerate,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'sec-fetch-site': site },
            body: JSON.stringify({ prompt: 'Calm ocean at sunset' }),
          },
          ADMIN,
        );
      expect((await create('cross-site')).status).toBe(403);
      expect((await create('same-site')).status).toBe(403);
      expect((await create('same-origin')).status).toBe(200);
      const upload = bodyOf(UPLOAD_PATH, 2000);
      const sent = await server.request(
        UPLOAD_PATH,
        {
          method: 'POST',
          headers: { 'content-type': upload.type, 'sec-fetch-site': 'cross-site' },
          body: upload.text,
        },
        ADMIN,
      );
      expect(sent.status).toBe(403);
      // A status query from another site spends the token too: refused on both backends alike.
      const read = await server.request(
        API_PATHS.imageGenerateTask('i2is-1'),
        { headers: { 'sec-fetch-site': 'cross-site' } },
        ADMIN,
      );
      expect(read.status).toBe(403);
    });

    it('refuses a text/plain body to /__console/tasks/hidden marked cross-site', async () => {
      await server.open({ env: env() });
      const response = await server.request(
        '/__console/tasks/hidden',
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
          body: JSON.stringify({ ids: ['i2is-1'], hidden: true }),
        },
        ADMIN,
      );
      expect(response.status).toBe(403);
      expect(await server.database.db.selectFrom('hidden_tasks').selectAll().execute()).toEqual([]);
    });
  });
}
