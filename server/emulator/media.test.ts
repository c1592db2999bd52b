import { describe, expect, it } from 'vitest';
import { asset, SAMPLES } from './media';
import { emulatorsClosedAfterEach } from '../testing/emulator';

const make = emulatorsClosedAfterEach();

const LONG_AGO = () => Date.UTC(2026, 0, 1) - 3_600_000;

describe('committed assets', () => {
  it('the videos are small H.264 MP4 files', () => {
    for (const file of ['video-9x16.mp4', 'video-16x9.mp4']) {
      const bytes = asset(file);
      expect(bytes.length).toBeLessThan(300 * 1024);
      const text = Buffer.from(bytes).toString('latin1');
      expect(text.slice(4, 8)).toBe('ftyp');
      expect(text).toContain('avc1');
    }
  });
});

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect(Buffer.from(bytes.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('generated images', () => {
  it('serve a PNG of the requested shape and quality with long cache headers once SUCCEEDED', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_generate',
      createdAt: LONG_AGO(),
      params: { prompt: 'Calm ocean at sunset', ratio: '16:9', quality: '2K' },
    });
    const response = await emulator.service.request(`/emulator/media/images/${id}.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toEqual({ width: 1536, height: 864 });
  });

  it('serve a 400 px thumbnail', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_generate',
      createdAt: LONG_AGO(),
      params: { ratio: '9:16' },
    });
    const response = await emulator.service.request(`/emulator/media/images/${id}.thumb.png`);
    expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toEqual({ width: 225, height: 400 });
  });

  it('differ between two tasks of the same prompt', async () => {
    const emulator = make();
    const params = { prompt: 'Snow-capped peaks under a full moon', ratio: '1:1', quality: '1K' };
    const [a, b] = [1, 2].map(() =>
      emulator.seedTask({ kind: 'image_generate', createdAt: LONG_AGO(), params }),
    );
    const bytes = await Promise.all(
      [a, b].map(async (id) =>
        Buffer.from(
          await (await emulator.service.request(`/emulator/media/images/${id}.thumb.png`)).arrayBuffer(),
        ),
      ),
    );
    expect(bytes[0]!.equals(bytes[1]!)).toBe(false);
  });

  it('do not exist before the task has SUCCEEDED, nor for a failed task, nor as .svg', async () => {
    const emulator = make();
    const running = emulator.seedTask({ kind: 'image_generate' });
    const failed = emulator.seedTask({ kind: 'image_generate', createdAt: LONG_AGO(), outcome: 'fail' });
    const done = emulator.seedTask({ kind: 'image_generate', createdAt: LONG_AGO() });
    for (const path of [`${running}.png`, `${failed}.png`, 'i2is-unknown.png', `${done}.svg`]) {
      const response = await emulator.service.request(`/emulator/media/images/${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 404, msg: 'Not Found' });
    }
  });
});

describe("the demo history's painted images", () => {
  it('are PNGs by scene, prompt, shape and variant; thumbnails are 400 px', async () => {
    const emulator = make();
    const full = await emulator.service.request('/emulator/media/painted/aurora-p0-9x16-v1.png');
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/png');
    expect(pngSize(new Uint8Array(await full.arrayBuffer()))).toEqual({ width: 576, height: 1024 });
    const thumb = await emulator.service.request('/emulator/media/painted/aurora-p0-1x1-v3.thumb.png');
    expect(pngSize(new Uint8Array(await thumb.arrayBuffer()))).toEqual({ width: 400, height: 400 });
  });

  it('answer 404 for a name that names no scene, prompt or shape', async () => {
    const emulator = make();
    for (const file of [
      'nowhere-p0-1x1-v0.png',
      'aurora-p9-1x1-v0.png',
      'aurora-p0-4x3-v0.png',
      'aurora-p0-1x1-v0.svg',
    ]) {
      expect((await emulator.service.request(`/emulator/media/painted/${file}`)).status, file).toBe(404);
    }
  });
});

describe('videos and thumbnails', () => {
  it('serve the MP4 matching the aspect ratio, with byte ranges', async () => {
    const emulator = make();
    const portrait = emulator.seedTask({
      kind: 'image_to_video',
      createdAt: LONG_AGO(),
      params: { aspectRatio: '9:16' },
    });
    const landscape = emulator.seedTask({
      kind: 'image_to_video',
      createdAt: LONG_AGO(),
      params: { aspectRatio: '16:9' },
    });
    const full = await emulator.service.request(`/emulator/media/videos/${portrait}.mp4`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('cache-control')).toContain('max-age=604800');
    expect(new Uint8Array(await full.arrayBuffer())).toEqual(asset('video-9x16.mp4'));

    const part = await emulator.service.request(`/emulator/media/videos/${landscape}.mp4`, {
      headers: { range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${asset('video-16x9.mp4').length}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    const suffix = await emulator.service.request(`/emulator/media/videos/${landscape}.mp4`, {
      headers: { range: 'bytes=-10' },
    });
    expect(suffix.status).toBe(206);
    expect((await suffix.arrayBuffer()).byteLength).toBe(10);

    const beyond = await emulator.service.request(`/emulator/media/videos/${landscape}.mp4`, {
      headers: { range: 'bytes=99999999-' },
    });
    expect(beyond.status).toBe(416);
  });

  it('serve a JPEG thumbnail', async () => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'image_to_video', createdAt: LONG_AGO() });
    const response = await emulator.service.request(`/emulator/media/thumbnails/${id}.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await response.arrayBuffer()).subarray(0, 3)).toEqual(
      new Uint8Array([0xff, 0xd8, 0xff]),
    );
  });

  it('serve the translated video of a video_translate task', async () => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'video_translate', createdAt: LONG_AGO() });
    expect((await emulator.service.request(`/emulator/media/videos/${id}.mp4`)).status).toBe(200);
  });

  it('are 404 while the task runs', async () => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'image_to_video' });
    expect((await emulator.service.request(`/emulator/media/videos/${id}.mp4`)).status).toBe(404);
    expect((await emulator.service.request(`/emulator/media/thumbnails/${id}.jpg`)).status).toBe(404);
  });
});

describe('captions', () => {
  it('serve a valid .ass file with the language and name', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'video_translate',
      createdAt: LONG_AGO(),
      params: { language: 'Korean', name: 'Korean-Tour' },
    });
    const response = await emulator.service.request(`/emulator/media/captions/${id}.ass`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/x-ssa; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith('[Script Info]')).toBe(true);
    expect(text).toContain('Korean translation');
    expect(text).toContain('Korean-Tour');
  });

  it('are 404 for another kind of task', async () => {
    const emulator = make();
    const id = emulator.seedTask({ kind: 'image_to_video', createdAt: LONG_AGO() });
    expect((await emulator.service.request(`/emulator/media/captions/${id}.ass`)).status).toBe(404);
  });
});

describe('demo media', () => {
  it('serves rendered scenes, clips and posters with their types; nothing else from the folder', async () => {
    const emulator = make();
    for (const [file, type] of [
      ['ocean-sunset-16x9.webp', 'image/webp'],
      ['aurora-9x16.thumb.webp', 'image/webp'],
      ['alpine-sunrise-9x16.mp4', 'video/mp4'],
      ['alpine-sunrise-9x16.jpg', 'image/jpeg'],
    ] as const) {
      const response = await emulator.service.request(`/emulator/media/demo/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe(type);
      expect((await response.arrayBuffer()).byteLength, file).toBeGreaterThan(1000);
    }
    for (const file of ['nope-16x9.webp', '..%2Fvideo-16x9.mp4', 'README.md'])
      expect((await emulator.service.request(`/emulator/media/demo/${file}`)).status, file).toBe(404);
  });
});

describe('samples', () => {
  it.each(Object.entries(SAMPLES))('serves %s with its content type', async (name, sample) => {
    const response = await make().service.request(`/emulator/samples/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(sample.type);
  });

  it('lists the samples with absolute URLs on the request origin', async () => {
    const response = await make().service.request('http://console.test:4173/emulator/samples');
    const { samples } = (await response.json()) as { samples: string[] };
    expect(samples).toContain('http://console.test:4173/emulator/samples/reference.png');
  });

  it('answers 404 for an unknown sample', async () => {
    expect((await make().service.request('/emulator/samples/nope.png')).status).toBe(404);
  });
});
