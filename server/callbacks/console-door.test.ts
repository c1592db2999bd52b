// A callback added by hand (`POST /__console/callbacks`) over a real socket, as the browser sends
// it: every request is answered, within the documented 1 MB with the result, past it with 413.
// About 200 KB got no answer at all, while the secret inbox answered the same body.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_CALLBACKS_PATH } from '../../src/api/core/rules';
import { imageGenerateCallback } from '../testing/callback-fixtures';
import { testNodeApp } from '../testing/test-node-app';
import { CALLBACK_MAX_BYTES } from './inbox';

const server = testNodeApp('console-door-test');
let listening: ServerType;
let base: string;

beforeEach(async () => {
  const nodeApp = await server.open();
  await new Promise<void>((resolve) => {
    listening = serve({ fetch: nodeApp.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
  });
  base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
});
afterEach(async () => {
  // A request the server never answered would hold its connection (and close()) open.
  (listening as { closeAllConnections?: () => void }).closeAllConnections?.();
  await new Promise((resolve) => listening.close(resolve));
  await server.close();
});
afterAll(server.remove);

/** A valid callback padded with spaces to exactly `bytes` bytes. */
function callbackOfSize(bytes: number, taskId: string): string {
  const json = JSON.stringify({
    ...imageGenerateCallback,
    data: { ...imageGenerateCallback.data, task_id: taskId },
  });
  expect(bytes).toBeGreaterThanOrEqual(json.length);
  return json + ' '.repeat(bytes - json.length);
}

/** POSTs `body`, chunked when asked (no Content-Length), and gives up after 10 s. */
function post(path: string, body: string, chunked = false) {
  const bytes = new TextEncoder().encode(body);
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    signal: AbortSignal.timeout(10_000),
  };
  if (chunked) {
    init.body = new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 16 * 1024)
          controller.enqueue(bytes.subarray(at, at + 16 * 1024));
        controller.close();
      },
    });
    init.duplex = 'half';
  } else init.body = bytes;
  return fetch(`${base}${path}`, init);
}

describe('POST /__console/callbacks over a socket', () => {
  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with a Content-Length';
    it(`answers a ~200 KB callback (${how})`, async () => {
      const reply = await post(CONSOLE_CALLBACKS_PATH, callbackOfSize(200_000, 'i2is-200k'), chunked);
      expect(reply.status).toBe(200);
      expect(await reply.json()).toMatchObject({ code: 0, data: { id: 1 } });
    });

    it(`takes exactly 1 MB (${how})`, async () => {
      const reply = await post(
        CONSOLE_CALLBACKS_PATH,
        callbackOfSize(CALLBACK_MAX_BYTES, 'i2is-1mb'),
        chunked,
      );
      expect(reply.status).toBe(200);
    });

    it(`answers 413 one byte past 1 MB (${how})`, async () => {
      const reply = await post(
        CONSOLE_CALLBACKS_PATH,
        callbackOfSize(CALLBACK_MAX_BYTES + 1, 'i2is-over'),
        chunked,
      );
      expect(reply.status).toBe(413);
      expect(await server.database.db.selectFrom('callbacks').select('id').execute()).toEqual([]);
    });
  }

  it('answers the same body at the secret inbox too', async () => {
    const reply = await post(`/callbacks/${server.secret}`, callbackOfSize(200_000, 'i2is-inbox'));
    expect(reply.status).toBe(200);
  });
});
