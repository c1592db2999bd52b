// The preview of a pasted image: a raster image comes back with its sniffed type and a sandboxing
// CSP; HTML, SVG, a file over the cap, a slow answer, a private address and a non-http address
// are each refused with a reason in words.
import { describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../proxy/outbound';
import { createPreviewRoutes, PREVIEW_PATH } from './preview-route';

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

const ask = (app: ReturnType<typeof createPreviewRoutes>, url: string) =>
  app.request(`${PREVIEW_PATH}?url=${encodeURIComponent(url)}`);

const answering = (body: BodyInit | null, init: ResponseInit = {}) =>
  (async () => new Response(body, init)) as unknown as typeof fetch;

describe('GET /__console/preview', () => {
  it('serves a PNG by its bytes (not its declared type), inert and briefly cached', async () => {
    const app = createPreviewRoutes(answering(PNG, { headers: { 'content-type': 'text/html' } }));
    const response = await ask(app, 'https://images.example.com/cat.png');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
  });

  it('refuses HTML and SVG with a reason', async () => {
    for (const body of ['<html><script>alert(1)</script>', '<svg xmlns="http://www.w3.org/2000/svg"/>']) {
      const response = await ask(createPreviewRoutes(answering(body)), 'https://example.com/x.png');
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        reason: 'The address does not point to a JPG, PNG, WebP, GIF or BMP image.',
      });
    }
  });

  it('refuses a file over the cap, by its header or while reading', async () => {
    const big = new Uint8Array(2000);
    big.set(PNG);
    const declared = createPreviewRoutes(answering(big, { headers: { 'content-length': '2000' } }), {
      maxBytes: 1000,
    });
    expect((await ask(declared, 'https://example.com/big.png')).status).toBe(413);
    const streamed = createPreviewRoutes(
      answering(
        new ReadableStream({
          start(controller) {
            controller.enqueue(big);
            controller.close();
          },
        }),
      ),
      { maxBytes: 1000 },
    );
    const response = await ask(streamed, 'https://example.com/big.png');
    expect(response.status).toBe(413);
    expect((await response.json()).reason).toMatch(/too large to preview/);
  });

  it('gives up on a slow address', async () => {
    const slow = ((_url: URL, init: RequestInit) =>
      new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      )) as unknown as typeof fetch;
    const response = await ask(createPreviewRoutes(slow, { timeoutMs: 50 }), 'https://example.com/slow.png');
    expect(response.status).toBe(504);
    expect((await response.json()).reason).toMatch(/did not answer within/);
  });

  it('says what the address answered when it is no success', async () => {
    const response = await ask(
      createPreviewRoutes(answering('gone', { status: 404 })),
      'https://example.com/x.png',
    );
    expect(response.status).toBe(502);
    expect((await response.json()).reason).toBe('The address answered 404 instead of an image.');
  });

  it('goes through the outbound guard: a private address is refused without being fetched', async () => {
    let fetched = 0;
    const guarded = createGuardedFetch({
      transport: async () => {
        fetched++;
        return new Response(PNG);
      },
    });
    const app = createPreviewRoutes(guarded);
    for (const url of ['http://127.0.0.1/x.png', 'http://169.254.169.254/latest', 'http://[::1]/x.png']) {
      const response = await ask(app, url);
      expect(response.status).toBe(502);
      expect((await response.json()).reason).toMatch(/cannot fetch this address/);
    }
    expect(fetched).toBe(0);
  });

  it('refuses what is no http(s) address', async () => {
    const app = createPreviewRoutes(answering(PNG));
    expect((await ask(app, 'file:///etc/passwd')).status).toBe(400);
    expect((await ask(app, 'not a url')).status).toBe(400);
  });
});
