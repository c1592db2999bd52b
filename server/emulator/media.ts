// Result files of emulated tasks and sample inputs, under /emulator/ (no auth: browsers load them
// directly in <img>, <video> and links). Results exist only once their task has SUCCEEDED, like
// the service's result links. Task ids are unguessable, so links are as private as the service's.
import { Hono, type Context } from 'hono';
import { readdirSync, readFileSync } from 'node:fs';
import { renderCaptions } from './captions';
import { notFound } from './envelope';
import { DEMO_ASSETS_PATH, PAINTED_PATH, paintedDemoImage } from './demo-scenes';
import { paintedPng, QUALITY_LONG_SIDE, THUMBNAIL_LONG_SIDE } from './painted-image';
import { EMULATED_VIDEO_SECONDS } from './task-views';
import { stateAt, type TaskRecord, type TaskStore } from './tasks';
import { requestOrigin } from '../http/request-origin';
import { byteRange } from '../http/byte-range';

const ASSETS = new URL('./assets/', import.meta.url);
const cache = new Map<string, Uint8Array>();

export function asset(name: string): Uint8Array {
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(new URL(name, ASSETS)));
    cache.set(name, bytes);
  }
  return bytes;
}

/** Result links are kept about 7 days by the service; a task id never changes its content. */
const RESULT_CACHE = 'public, max-age=604800, immutable';
const SAMPLE_CACHE = 'public, max-age=86400';

/** The demo's rendered scenes, clips and posters (assets/demo/, demo-scenes.ts), by extension. */
const DEMO_TYPES: Record<string, string> = { webp: 'image/webp', mp4: 'video/mp4', jpg: 'image/jpeg' };
const DEMO_FILE = /^[a-z0-9-]+(?:\.thumb)?\.(webp|mp4|jpg)$/;
// Read at the first demo request, not at import: screen tests load this module under jsdom, where
// import.meta.url is no file: URL.
let demoFileNames: Set<string> | undefined;
const demoFiles = () => (demoFileNames ??= new Set(readdirSync(new URL('demo/', ASSETS))));

export const SAMPLES: Record<string, { file: string; type: string }> = {
  'reference.png': { file: 'reference.png', type: 'image/png' },
  'reference.jpg': { file: 'reference.jpg', type: 'image/jpeg' },
  'reference.webp': { file: 'reference.webp', type: 'image/webp' },
  'video.mp4': { file: 'video-16x9.mp4', type: 'video/mp4' },
};

/** Serves bytes with single-range support, which Safari needs to play a video at all. */
function sendBytes(c: Context, bytes: Uint8Array, type: string, cacheControl: string): Response {
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': cacheControl,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  const size = bytes.length;
  const range = byteRange(c.req.header('range'), size);
  if (!range) {
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: { ...headers, 'content-length': String(size) },
    });
  }
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  }
  const { start, end } = range;
  const part = bytes.subarray(start, end + 1);
  return new Response(part as Uint8Array<ArrayBuffer>, {
    status: 206,
    headers: {
      ...headers,
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': String(part.length),
    },
  });
}

function videoAspect(task: TaskRecord): '9x16' | '16x9' {
  return task.kind === 'image_to_video' && task.aspectRatio === '9:16' ? '9x16' : '16x9';
}

export function createMediaRoutes(store: TaskStore, now: () => number, paintedDir?: string): Hono {
  const app = new Hono();
  const finished = (id: string) => {
    const task = store.get(id);
    return task && stateAt(task, now()).status === 'SUCCEEDED' ? task : undefined;
  };

  app.get('/emulator/samples', (c) => {
    const origin = requestOrigin(c);
    return c.json({ samples: Object.keys(SAMPLES).map((name) => `${origin}/emulator/samples/${name}`) });
  });
  app.get('/emulator/samples/:name', (c) => {
    const sample = SAMPLES[c.req.param('name')];
    return sample ? sendBytes(c, asset(sample.file), sample.type, SAMPLE_CACHE) : notFound(c);
  });

  // The demo's media: the seeded history's results link here, and the emulator's own images use them.
  app.get(`${DEMO_ASSETS_PATH}/:file`, (c) => {
    const file = c.req.param('file');
    const type = DEMO_FILE.exec(file)?.[1];
    if (!type || !demoFiles().has(file)) return notFound(c);
    return sendBytes(c, asset(`demo/${file}`), DEMO_TYPES[type]!, RESULT_CACHE);
  });

  // The demo history's images (demo-history.ts): painted from a scene's prompt, by name.
  app.get(`${PAINTED_PATH}/:file`, (c) => {
    const image = paintedDemoImage(c.req.param('file'));
    return image ? sendBytes(c, paintedPng(image, paintedDir), 'image/png', RESULT_CACHE) : notFound(c);
  });

  app.get('/emulator/media/images/:file', (c) => {
    const match = /^(.+?)(\.thumb)?\.png$/.exec(c.req.param('file'));
    const task = match && finished(match[1]!);
    if (!match || task?.kind !== 'image_generate') return notFound(c);
    const png = paintedPng(
      {
        prompt: task.prompt,
        seed: task.id,
        ratio: task.ratio,
        longSide: match[2]
          ? THUMBNAIL_LONG_SIDE
          : (QUALITY_LONG_SIDE[task.quality] ?? QUALITY_LONG_SIDE['1K']!),
      },
      paintedDir,
    );
    return sendBytes(c, png, 'image/png', RESULT_CACHE);
  });

  app.get('/emulator/media/videos/:file', (c) => {
    const task = finished(c.req.param('file').replace(/\.mp4$/, ''));
    if (!c.req.param('file').endsWith('.mp4') || !task || task.kind === 'image_generate') return notFound(c);
    // A video asked for with generate_audio gets the file with an audio track (a soft tone).
    const audio = task.kind === 'image_to_video' && task.audio ? '-audio' : '';
    return sendBytes(c, asset(`video-${videoAspect(task)}${audio}.mp4`), 'video/mp4', RESULT_CACHE);
  });

  app.get('/emulator/media/thumbnails/:file', (c) => {
    const task = finished(c.req.param('file').replace(/\.jpg$/, ''));
    if (!c.req.param('file').endsWith('.jpg') || !task || task.kind === 'image_generate') return notFound(c);
    return sendBytes(c, asset(`thumb-${videoAspect(task)}.jpg`), 'image/jpeg', RESULT_CACHE);
  });

  app.get('/emulator/media/captions/:file', (c) => {
    const task = finished(c.req.param('file').replace(/\.ass$/, ''));
    if (!c.req.param('file').endsWith('.ass') || task?.kind !== 'video_translate') return notFound(c);
    const text = renderCaptions({
      language: task.language,
      name: task.name,
      seconds: EMULATED_VIDEO_SECONDS,
    });
    return c.body(text, 200, {
      'content-type': 'text/x-ssa; charset=utf-8',
      'content-disposition': `inline; filename="${task.id}.ass"`,
      'cache-control': RESULT_CACHE,
      'x-content-type-options': 'nosniff',
    });
  });

  return app;
}
