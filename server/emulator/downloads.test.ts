import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadImage, downloadReferenceImages, DownloadError, sniffImageFormat } from './downloads';
import { asset } from './media';
import { localServer, type LocalServer } from '../testing/emulator';

const MB = 1024 * 1024;
const GIF = new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0]);
const BMP = (() => {
  const bytes = new Uint8Array(58);
  bytes.set(Buffer.from('BM'));
  bytes[14] = 40; // BITMAPINFOHEADER size
  return bytes;
})();

let server: LocalServer;
const pending = new Set<ReturnType<typeof setTimeout>>();

beforeAll(async () => {
  server = await localServer(async (req, res) => {
    switch (req.url) {
      case '/image.png':
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(asset('reference.png'));
      case '/image.jpg':
        return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(asset('reference.jpg'));
      case '/image.webp':
        return void res.writeHead(200).end(asset('reference.webp'));
      case '/image.gif':
        return void res.writeHead(200).end(GIF);
      case '/image.bmp':
        return void res.writeHead(200).end(BMP);
      case '/text.png':
        return void res.writeHead(200, { 'content-type': 'image/png' }).end('this is not an image at all');
      case '/video.png':
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(asset('video-16x9.mp4'));
      case '/missing.png':
        return void res.writeHead(404).end();
      case '/declared-huge.png':
        res.writeHead(200, { 'content-length': String(21 * MB) });
        return void res.write(asset('reference.png'));
      case '/huge.png': {
        // No content-length: the limit must be enforced while streaming.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = new Uint8Array(MB);
        chunk.set(asset('reference.png').subarray(0, 8));
        for (let i = 0; i < 21 && !res.destroyed; i++) {
          if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
        }
        return void res.end();
      }
      case '/exactly-20mb.png': {
        const body = new Uint8Array(20 * MB);
        body.set(asset('reference.png').subarray(0, 8));
        return void res.writeHead(200).end(body);
      }
      case '/slow.png': {
        const timer = setTimeout(() => res.writeHead(200).end(asset('reference.png')), 20_000);
        pending.add(timer);
        return;
      }
      default:
        return void res.writeHead(500).end();
    }
  });
});

afterAll(async () => {
  for (const timer of pending) clearTimeout(timer);
  await server.close();
});

// Generous: on a loaded 2-core machine 0.5 s was not always enough for a local answer. The test of
// the timeout itself sets its own.
const options = () => ({ fetch: globalThis.fetch, timeoutMs: 10_000 });

async function reason(
  path: string,
  extra: Partial<Parameters<typeof downloadImage>[1]> = {},
): Promise<string> {
  const error = await downloadImage(`${server.url}${path}`, { ...options(), ...extra }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadError);
  return (error as DownloadError).reason;
}

describe('sniffImageFormat', () => {
  it.each([
    ['reference.png', 'PNG'],
    ['reference.jpg', 'JPEG'],
    ['reference.webp', 'WebP'],
  ])('recognises %s as %s', (file, format) => {
    expect(sniffImageFormat(asset(file))).toBe(format);
  });
  it('recognises GIF and BMP', () => {
    expect(sniffImageFormat(GIF)).toBe('GIF');
    expect(sniffImageFormat(BMP)).toBe('BMP');
  });
  it('refuses text, video, an empty body and a text starting with "BM"', () => {
    expect(sniffImageFormat(Buffer.from('hello'))).toBeUndefined();
    expect(sniffImageFormat(asset('video-9x16.mp4'))).toBeUndefined();
    expect(sniffImageFormat(new Uint8Array())).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('BMW is a car maker, not a bitmap'))).toBeUndefined();
  });
});

describe('downloadImage (real HTTP server on 127.0.0.1)', () => {
  it.each([
    ['/image.png', 'PNG'],
    ['/image.jpg', 'JPEG'],
    ['/image.webp', 'WebP'],
    ['/image.gif', 'GIF'],
    ['/image.bmp', 'BMP'],
  ])('accepts %s as %s', async (path, format) => {
    expect(await downloadImage(`${server.url}${path}`, options())).toBe(format);
  });

  it('judges by content, not by name or content type: a .png URL serving text is refused', async () => {
    expect(await reason('/text.png')).toBe('not a supported image (JPG, JPEG, PNG, BMP, WebP or GIF)');
    expect(await reason('/video.png')).toBe('not a supported image (JPG, JPEG, PNG, BMP, WebP or GIF)');
  });

  it('refuses a 404 with the HTTP status', async () => {
    expect(await reason('/missing.png')).toBe('HTTP 404');
  });

  it('accepts exactly 20 MB and aborts a stream past 20 MB', async () => {
    expect(await downloadImage(`${server.url}/exactly-20mb.png`, { ...options(), timeoutMs: 10_000 })).toBe(
      'PNG',
    );
    expect(await reason('/huge.png', { timeoutMs: 10_000 })).toBe('larger than 20 MB');
  });

  it('refuses a declared length over 20 MB without reading it', async () => {
    expect(await reason('/declared-huge.png')).toBe('larger than 20 MB');
  });

  it('gives up on a slow response after the timeout', async () => {
    const started = Date.now();
    expect(await reason('/slow.png', { timeoutMs: 200 })).toBe('timed out after 0.2 s');
    // Long before the slow server's answer (20 s): the timeout, not the answer, ended the download.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reports an unreachable host in one generic text that names no reason', async () => {
    const error = await downloadImage('http://127.0.0.1:1/x.png', options()).catch((e: DownloadError) => e);
    expect((error as DownloadError).reason).toBe('cannot be fetched');
  });
});

describe('downloadReferenceImages', () => {
  it('downloads all in parallel and reports the first failing URL in list order', async () => {
    const urls = ['/image.png', '/missing.png', '/text.png'].map((path) => `${server.url}${path}`);
    const error = (await downloadReferenceImages(urls, options()).catch((e: unknown) => e)) as DownloadError;
    expect(error.url).toBe(urls[1]);
    expect(error.message).toBe(`${urls[1]}: HTTP 404`);
  });

  it('resolves with each format when all succeed, and with nothing for no URLs', async () => {
    const urls = ['/image.png', '/image.gif'].map((path) => `${server.url}${path}`);
    expect(await downloadReferenceImages(urls, options())).toEqual(['PNG', 'GIF']);
    expect(await downloadReferenceImages([], options())).toEqual([]);
  });
});

describe('SVG images', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="16"></svg>';
  const fetchSvg: typeof fetch = async () =>
    new Response(svg, { headers: { 'content-type': 'image/svg+xml' } });

  it('are refused, even from the emulator’s own results path (its results are PNG)', async () => {
    for (const url of [
      'https://images.example.com/drawing.svg',
      'http://127.0.0.1:1/emulator/media/images/i2is-abc.svg',
    ])
      await expect(downloadImage(url, { fetch: fetchSvg, timeoutMs: 1000 })).rejects.toThrow(
        /not a supported image/,
      );
  });
});
