import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asset } from './media';
import { AUTH, emulatorsClosedAfterEach, postJson } from '../testing/emulator';
import { sniffMediaType } from '../../src/api/media-type';
import { safeFileName } from './upload-file-name';
import { UPLOAD_MAX_AGE_MS } from './upload-store';
import { UPLOAD_ROUTE } from './uploads';
import type { EmulatorOptions } from './options';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const makeEmulator = emulatorsClosedAfterEach();

function emulatorWithDir(options: Partial<EmulatorOptions> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-uploads-'));
  dirs.push(dataDir);
  const emulator = makeEmulator({ dataDir, ...options });
  // Files are written with the real clock's mtime; the emulator's clock starts there too.
  emulator.clock.now = Date.now();
  return Object.assign(emulator, { uploadsDir: join(dataDir, 'uploads') });
}

const PNG = asset('reference.png');
const ftyp = (brand: string) =>
  new Uint8Array([0, 0, 0, 0x20, ...Buffer.from(`ftyp${brand}`), ...new Uint8Array(40)]);
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...new Uint8Array(40)]);

async function upload(
  emulator: ReturnType<typeof emulatorWithDir>,
  bytes: Uint8Array,
  name: string,
  options: { part?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.append(options.part ?? 'file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const response = await emulator.service.request(UPLOAD_ROUTE, {
    method: 'POST',
    headers: options.headers ?? AUTH,
    body: form,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads the envelope's fields
  return { status: response.status, body: (await response.json()) as any };
}

describe('sniffMediaType', () => {
  it('decides the type from the bytes: the eight accepted types, nothing else', () => {
    expect(sniffMediaType(PNG)?.ext).toBe('png');
    expect(sniffMediaType(asset('reference.jpg'))?.ext).toBe('jpg');
    expect(sniffMediaType(asset('reference.webp'))?.ext).toBe('webp');
    expect(sniffMediaType(new Uint8Array([...Buffer.from('GIF89a'), 0, 0]))?.ext).toBe('gif');
    expect(sniffMediaType(asset('video-16x9.mp4'))).toMatchObject({ ext: 'mp4', contentType: 'video/mp4' });
    expect(sniffMediaType(ftyp('isom'))?.ext).toBe('mp4');
    expect(sniffMediaType(ftyp('qt  '))).toMatchObject({ ext: 'mov', contentType: 'video/quicktime' });
    expect(sniffMediaType(WEBM)).toMatchObject({ ext: 'webm', contentType: 'video/webm' });
    expect(sniffMediaType(Buffer.from('just some text, renamed to .png'))).toBeUndefined();
    expect(sniffMediaType(Buffer.from('%PDF-1.7 ........'))).toBeUndefined();
  });

  it('answers with the browser’s name, without folders, and the real extension', () => {
    const png = sniffMediaType(PNG)!;
    expect(safeFileName('moodboard.png', png)).toBe('moodboard.png');
    expect(safeFileName('C:\\Users\\me\\shot.PNG', png)).toBe('shot.PNG');
    expect(safeFileName('../../etc/passwd', png)).toBe('passwd.png');
    expect(safeFileName('photo.txt', png)).toBe('photo.png');
    expect(safeFileName('', png)).toBe('file.png');
  });
});

describe('POST /v1/figure-resource/upload/file', () => {
  it('stores the file under DATA_DIR/uploads and answers with the provider’s envelope', async () => {
    const emulator = emulatorWithDir();
    const { status, body } = await upload(emulator, PNG, 'moodboard.png');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 0, success: true, message: { global: 'success' } });
    expect(body.result.fileName).toBe('moodboard.png');
    expect(body.result.url).toMatch(/^http:\/\/localhost\/emulator\/uploads\/[0-9a-f]{32}\.png$/);
    expect(body.result.fileId).toMatch(/^[0-9a-f]{32}$/);
    expect(readdirSync(emulator.uploadsDir)).toEqual([`${body.result.fileId}.png`]);

    const served = await emulator.app.request(new URL(body.result.url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  it('a text file renamed .png is refused (success false, non-zero code) and nothing is kept', async () => {
    const emulator = emulatorWithDir();
    const { status, body } = await upload(
      emulator,
      Buffer.from('hello, I am not a picture at all'),
      'cat.png',
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 100007, success: false, result: null });
    expect(body.message.global).toMatch(/Unsupported file type/);
    expect(readdirSync(emulator.uploadsDir)).toEqual([]);
  });

  it('a file over UPLOAD_MAX_MB gets 413 and leaves nothing behind; images stop at 20 MB', async () => {
    const emulator = emulatorWithDir({ uploadMaxBytes: 1000 });
    const video = new Uint8Array(2000);
    video.set(ftyp('isom'));
    const big = await upload(emulator, video, 'clip.mp4');
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 413, success: false });
    expect(readdirSync(emulator.uploadsDir)).toEqual([]);

    const roomy = emulatorWithDir();
    const image = new Uint8Array(20 * 1024 * 1024 + 1);
    image.set(PNG.subarray(0, 64));
    const tooBig = await upload(roomy, image, 'huge.png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message.global).toMatch(/image is larger than 20 MB/);
  });

  it('keeps a file of exactly UPLOAD_MAX_MB and refuses one byte more', async () => {
    const emulator = emulatorWithDir({ uploadMaxBytes: 1000 });
    const atLimit = new Uint8Array(1000);
    atLimit.set(ftyp('isom'));
    expect((await upload(emulator, atLimit, 'at-limit.mp4')).status).toBe(200);
    const onePast = new Uint8Array(1001);
    onePast.set(ftyp('isom'));
    expect((await upload(emulator, onePast, 'one-past.mp4')).status).toBe(413);
  });

  it('takes MP4, MOV and WebM videos and serves them with their type', async () => {
    const emulator = emulatorWithDir();
    for (const [bytes, name, type] of [
      [asset('video-16x9.mp4'), 'clip.mp4', 'video/mp4'],
      [ftyp('qt  '), 'clip.mov', 'video/quicktime'],
      [WEBM, 'clip.webm', 'video/webm'],
    ] as const) {
      const { body } = await upload(emulator, bytes, name);
      expect(body.result.fileName).toBe(name);
      const served = await emulator.app.request(new URL(body.result.url).pathname);
      expect(served.headers.get('content-type')).toBe(type);
    }
  });

  it('serves ranges: 206 with Content-Range, suffix ranges, 416 past the end', async () => {
    const emulator = emulatorWithDir();
    const video = asset('video-16x9.mp4');
    const { body } = await upload(emulator, video, 'clip.mp4');
    const path = new URL(body.result.url).pathname;
    const part = await emulator.app.request(path, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${video.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(video.subarray(10, 20));
    const tail = await emulator.app.request(path, { headers: { range: 'bytes=-4' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(video.subarray(video.length - 4));
    const past = await emulator.app.request(path, { headers: { range: `bytes=${video.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${video.length}`);
  });

  it('an upload cut off half-way is answered, not logged as an internal error, and keeps nothing', async () => {
    const logged: string[] = [];
    const emulator = emulatorWithDir({ log: (line) => logged.push(line) });
    const boundary = 'cut-off-boundary';
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([...Buffer.from(head), ...PNG.subarray(0, 64)]));
        // What undici hands the server when the browser cancels (XMLHttpRequest.abort) mid-body.
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    const response = await emulator.service.request(UPLOAD_ROUTE, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 100001, success: false });
    expect(logged).toEqual([]);
    expect(existsSync(emulator.uploadsDir) ? readdirSync(emulator.uploadsDir) : []).toEqual([]);
  });

  it('refuses a request without the part "file" or without multipart', async () => {
    const emulator = emulatorWithDir();
    const wrongPart = await upload(emulator, PNG, 'a.png', { part: 'image' });
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body).toMatchObject({ code: 100001, success: false });
    const json = await postJson(emulator, UPLOAD_ROUTE, { file: 'x' });
    expect(json.status).toBe(400);
  });

  it('needs the bearer token on the network face; answers 404 when switched off', async () => {
    const emulator = emulatorWithDir();
    expect((await upload(emulator, PNG, 'a.png', { headers: {} })).status).toBe(401);
    const off = emulatorWithDir({ disabled: ['upload'] });
    const { status, body } = await upload(off, PNG, 'a.png');
    expect(status).toBe(404);
    expect(body).toEqual({ code: 404, msg: 'Not Found' });
  });

  it('forgets uploads after 7 days: no longer served, and swept from disk', async () => {
    const emulator = emulatorWithDir();
    const { body } = await upload(emulator, PNG, 'a.png');
    const path = new URL(body.result.url).pathname;
    emulator.clock.now = Date.now() + UPLOAD_MAX_AGE_MS + 60_000;
    expect((await emulator.app.request(path)).status).toBe(404);
    expect(readdirSync(emulator.uploadsDir)).toEqual([]);
  });

  it('its own upload URLs work as reference images without any download', async () => {
    const emulator = emulatorWithDir({
      fetch: () => Promise.reject(new Error('no network in this test')),
    });
    const image = (await upload(emulator, PNG, 'moodboard.png')).body.result.url as string;
    const video = (await upload(emulator, asset('video-16x9.mp4'), 'clip.mp4')).body.result.url as string;
    const created = await postJson(emulator, '/v1/image_generate', {
      prompt: 'a cat',
      reference_images: [image],
    });
    expect(created.body.code).toBe(0);
    expect(created.body.data.task_ids).toHaveLength(1);

    const notImage = await postJson(emulator, '/v1/image_generate', {
      prompt: 'a cat',
      reference_images: [video],
    });
    expect(notImage.body).toMatchObject({ code: 530002 });
    expect(notImage.body.msg).toMatch(/not a supported image/);
    const gone = await postJson(emulator, '/v1/image_generate', {
      prompt: 'a cat',
      reference_images: [image.replace(/[0-9a-f]{32}/, '0'.repeat(32))],
    });
    expect(gone.body.msg).toMatch(/HTTP 404/);

    const translated = await postJson(emulator, '/v1/video_translate', {
      target_languages: ['French'],
      video_url: video,
    });
    expect(translated.body.code).toBe(0);
  });
});
