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

describe('generated images', () => {
  it('serve an SVG with the prompt, long cache headers and a locked-down CSP once SUCCEEDED', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_generate',
      createdAt: LONG_AGO(),
      params: { prompt: 'Fox <script>', ratio: '16:9', quality: '1K' },
    });
    const response = await emulator.service.request(`/emulator/media/images/${id}.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const svg = await response.text();
    expect(svg).toContain('Fox &lt;script&gt;');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('width="1024" height="576"');
  });

  it('serve a smaller thumbnail variant', async () => {
    const emulator = make();
    const id = emulator.seedTask({
      kind: 'image_generate',
      createdAt: LONG_AGO(),
      params: { ratio: '9:16' },
    });
    const svg = await (await emulator.service.request(`/emulator/media/images/${id}.thumb.svg`)).text();
    expect(svg).toContain('width="180" height="320"');
  });

  it('do not exist before the task has SUCCEEDED, nor for a failed task', async () => {
    const emulator = make();
    const running = emulator.seedTask({ kind: 'image_generate' });
    const failed = emulator.seedTask({ kind: 'image_generate', createdAt: LONG_AGO(), outcome: 'fail' });
    for (const id of [running, failed, 'i2is-unknown']) {
      const response = await emulator.service.request(`/emulator/media/images/${id}.svg`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 404, msg: 'Not Found' });
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
