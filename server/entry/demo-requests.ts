// The requests of the demo's history, drawn one at a time from a seeded random generator: an image
// request, a translation or an image-to-video clip, each with its tasks, their results and
// timelines, as rows ready for the bulk INSERTs of demo-history.ts. The order of the draws is what
// keeps every run's history the same: a change here changes the whole 30 days.
import { TASK_ID_PREFIXES } from '../../src/api/query/task-types';
import type { Role } from '../../src/api/roles';
import type { TaskType } from '../../src/api/schemas';
import {
  CLIP_SCENES,
  DEMO_ASSETS_PATH,
  PAINTED_PATH,
  SCENES,
  TRANSLATION_CLIP,
  paintedDemoName,
  shapeFor,
} from '../emulator/demo-scenes';
import { requestIdOf } from '../tasks/request-fields';

export interface DemoPerson {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Failure messages in the service's voice (api-spec.md: error_message carries the detail). */
export const FAILURE_MESSAGES: Record<TaskType, string[]> = {
  image_generate: [
    'Content review failed: the prompt may violate the usage policy. Please revise it and try again.',
    'Image generation timed out. Please try again later.',
    'The service is busy. Please retry in a few minutes.',
  ],
  video_translate: [
    'Speech recognition failed: no clear speech was detected in the video.',
    'Video decoding failed: the source video could not be read.',
    'Translation timed out. Please submit the task again.',
  ],
  image_to_video: [
    'Content safety check did not pass for the start frame.',
    'Video generation failed. Please try again later.',
    'Task timed out after 20 minutes.',
  ],
};

const VIDEO_NAMES = [
  'Product tour',
  'All-hands recap',
  'Onboarding: your first week',
  'Customer webinar Q3',
  'Spring campaign teaser',
  'Support: resetting your password',
  'Release notes 4.2',
  'Founder update',
];
const LANGUAGES = ['Spanish', 'French', 'German', 'Japanese', 'Portuguese', 'Korean', 'Italian', 'Chinese'];

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    let r = next() * items.reduce((sum, [, w]) => sum + w, 0);
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items.at(-1)![0];
  };
  /** Log-normal around `median` (seconds), spread `sigma`. */
  const duration = (median: number, sigma: number) => {
    const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    return median * Math.exp(sigma * normal);
  };
  const hex = (length: number) => Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');
  return { next, pick, weighted, duration, hex };
}

export interface TaskRow {
  id: string;
  kind: TaskType;
  source: 'created';
  params: string;
  batch: string | null;
  prompt: string | null;
  name: string | null;
  language: string | null;
  creator: string;
  creator_id: string;
  status: string;
  result: string;
  last_source: string;
  created_at: Date;
  updated_at: Date;
  finished_at: Date;
  last_checked_at: Date;
  request_id: string;
}
export interface EventRow {
  task_id: string;
  at: Date;
  source: 'created' | 'poll' | 'callback';
  status: string | null;
}
export interface RequestRow {
  id: string;
  kind: TaskType;
  creator: string;
  creator_id: string;
  created_at: Date;
  params: string;
  title: string;
  task_ids: string;
}

export interface DemoHistory {
  requests: RequestRow[];
  tasks: TaskRow[];
  events: EventRow[];
}

/** Paintings per scene prompt and shape: a request of four images shows four of them. */
const IMAGE_VARIANTS = 4;

/** What the draws of one history share: the generator, where media live, and what is drawn so far. */
export interface DemoDraw {
  rng: ReturnType<typeof random>;
  origin: string;
  /** A file of the emulator's demo media (server/emulator/assets/demo/), at this console's address. */
  asset: (file: string) => string;
  people: Record<'maya' | 'jonas' | 'priya', DemoPerson>;
  history: DemoHistory;
  /** Finished images so far, by scene: what image-to-video requests animate. */
  imagesByScene: Map<string, string[]>;
}

/** A new draw from the seed: the same seed and origin make the same requests. */
export function startDraw(seed: number, origin: string, people: DemoDraw['people']): DemoDraw {
  return {
    rng: random(seed),
    origin,
    asset: (file) => `${origin}${DEMO_ASSETS_PATH}/${file}`,
    people,
    history: { requests: [], tasks: [], events: [] },
    imagesByScene: new Map(),
  };
}

/**
 * Adds one request with its tasks: each succeeds or fails (about one in ten), finishes after its
 * `seconds`, and has the timeline created, running, then its end by a callback or a poll.
 */
function addRequest(
  draw: DemoDraw,
  kind: TaskType,
  person: DemoPerson,
  at: number,
  params: Record<string, unknown>,
  title: string,
  tasks: {
    language?: string;
    name?: string;
    result: (ok: boolean) => Record<string, unknown>;
    seconds: number;
  }[],
  scene?: string,
) {
  const { rng, history, imagesByScene } = draw;
  const ids = tasks.map(() => `${TASK_ID_PREFIXES[kind]}${rng.hex(32)}`);
  const requestId = requestIdOf(ids[0]!);
  const created = new Date(at);
  history.requests.push({
    id: requestId,
    kind,
    creator: person.name,
    creator_id: person.id,
    created_at: created,
    params: JSON.stringify(params),
    title,
    task_ids: JSON.stringify(ids),
  });
  tasks.forEach((task, index) => {
    const id = ids[index]!;
    const ok = rng.next() >= 0.095;
    const finished = new Date(at + Math.round(task.seconds * 1000));
    const status = ok ? 'SUCCEEDED' : 'FAILED';
    const failure = ok ? '' : rng.pick(FAILURE_MESSAGES[kind]);
    const result: Record<string, unknown> = {
      task_id: id,
      status,
      ...task.result(ok),
      error_message: failure,
    };
    const source = rng.next() < 0.6 ? 'callback' : 'poll';
    history.tasks.push({
      id,
      kind,
      source: 'created',
      params: JSON.stringify(params),
      batch: ids.length > 1 ? JSON.stringify(ids) : null,
      prompt: typeof params.prompt === 'string' ? params.prompt : null,
      name: typeof params.name === 'string' ? params.name : null,
      language: task.language ?? null,
      creator: person.name,
      creator_id: person.id,
      status,
      result: JSON.stringify(task.name ? { ...result, name: task.name, language: task.language } : result),
      last_source: source,
      created_at: created,
      updated_at: finished,
      finished_at: finished,
      last_checked_at: finished,
      request_id: requestId,
    });
    const running = kind === 'image_generate' ? 'GENERATING' : 'PROCESSING';
    history.events.push(
      { task_id: id, at: created, source: 'created', status: null },
      { task_id: id, at: new Date(at + 1500), source: 'poll', status: running },
      { task_id: id, at: finished, source, status },
    );
    if (ok && scene) {
      imagesByScene.set(scene, [...(imagesByScene.get(scene) ?? []), String(result.image_url)]);
    }
  });
}

/** A request of one to four images of a scene, painted in the shape and quality drawn. */
export function drawImageRequest(draw: DemoDraw, at: number) {
  const { rng, origin } = draw;
  const { maya, jonas, priya } = draw.people;
  const person = rng.weighted([
    [maya, 6],
    [jonas, 2],
    [priya, 2],
  ] as const);
  const scene = rng.pick(SCENES);
  const promptIndex = Math.floor(rng.next() * scene.prompts.length);
  const prompt = scene.prompts[promptIndex]!;
  const ratio = rng.weighted([
    ['16:9', 5],
    ['9:16', 3],
    ['1:1', 3],
  ] as const);
  const quality = rng.weighted([
    ['2K', 6],
    ['1K', 2],
    ['4K', 2],
  ] as const);
  const module = rng.weighted([
    ['std', 7],
    ['pro', 3],
  ] as const);
  const count = rng.weighted([
    [1, 2],
    [2, 3],
    [4, 3],
  ] as const);
  // Each image of a request is another variant of the painting, so no two of them are twins.
  const firstVariant = Math.floor(rng.next() * IMAGE_VARIANTS);
  const painted = (index: number, thumbnail: boolean) =>
    `${origin}${PAINTED_PATH}/${paintedDemoName(scene.name, promptIndex, shapeFor(ratio), (firstVariant + index) % IMAGE_VARIANTS, thumbnail)}`;
  const slow = (module === 'pro' ? 1.5 : 1) * (quality === '4K' ? 1.6 : 1);
  const params = { prompt, module, generate_count: count, image_quality: quality, image_ratio: ratio };
  addRequest(
    draw,
    'image_generate',
    person,
    at,
    params,
    prompt,
    Array.from({ length: count }, (_, index) => ({
      seconds: rng.duration(13 * slow, 0.35),
      result: (ok) => ({
        image_url: ok ? painted(index, false) : '',
        thumbnail_url: ok ? painted(index, true) : '',
      }),
    })),
    scene.name,
  );
}

/** A translation of one of the team's videos into one to four languages. */
export function drawTranslationRequest(draw: DemoDraw, at: number) {
  const { rng, origin, asset } = draw;
  const { maya, jonas, priya } = draw.people;
  const person = rng.weighted([
    [jonas, 6],
    [priya, 2],
    [maya, 1],
  ] as const);
  const name = rng.pick(VIDEO_NAMES);
  const count = rng.weighted([
    [1, 3],
    [2, 3],
    [3, 2],
    [4, 1],
  ] as const);
  const languages = [...LANGUAGES].sort(() => rng.next() - 0.5).slice(0, count);
  const params = {
    target_languages: languages,
    video_url: `${origin}/emulator/samples/video.mp4`,
    name,
    speaker_num: 1,
    enable_caption: false,
  };
  addRequest(
    draw,
    'video_translate',
    person,
    at,
    params,
    name,
    languages.map((language) => ({
      language,
      name: `${language}-${name}`,
      seconds: rng.duration(420, 0.55),
      result: (ok) => ({ video_url: ok ? asset(`${TRANSLATION_CLIP}.mp4`) : '', caption_url: '' }),
    })),
  );
}

/** An image-to-video request, animating the scene's latest finished images when there are any. */
export function drawClipRequest(draw: DemoDraw, at: number) {
  const { rng, asset, imagesByScene } = draw;
  const { maya, jonas, priya } = draw.people;
  const person = rng.weighted([
    [maya, 5],
    [priya, 2],
    [jonas, 1],
  ] as const);
  const scene = rng.pick(CLIP_SCENES);
  const prompt = rng.pick(scene.motions);
  const aspect = rng.weighted([
    ['16:9', 3],
    ['9:16', 2],
  ] as const);
  const model = rng.weighted([
    ['V', 4],
    ['KL', 1],
  ] as const);
  const resolution = model === 'KL' ? '720p' : rng.pick(['720p', '1080p'] as const);
  const duration = model === 'KL' ? rng.pick([5, 10]) : rng.pick([4, 6, 8]);
  const shape = shapeFor(aspect);
  const frames = imagesByScene.get(scene.name) ?? [];
  const still = (n: number) => frames.at(-1 - n) ?? asset(`${scene.name}-${shape}.webp`);
  const count = rng.weighted([
    [1, 4],
    [2, 1],
  ] as const);
  const params =
    model === 'V'
      ? {
          model,
          prompt,
          image_url: still(0),
          aspect_ratio: aspect,
          aspect_resolution: resolution,
          duration,
          generate_audio: rng.next() < 0.3,
          generate_count: count,
        }
      : {
          model,
          prompt,
          reference_images: [still(0), still(1)],
          aspect_ratio: aspect,
          aspect_resolution: resolution,
          duration,
          generate_count: count,
        };
  const short = resolution === '720p' ? 720 : 1080;
  const long = Math.round((short * 16) / 9);
  addRequest(
    draw,
    'image_to_video',
    person,
    at,
    params,
    prompt,
    Array.from({ length: count }, () => ({
      seconds: rng.duration(150 * (duration / 6), 0.45),
      result: (ok) => ({
        video_url: ok ? asset(`${scene.name}-${shape}.mp4`) : '',
        thumbnail_url: ok ? asset(`${scene.name}-${shape}.jpg`) : '',
        duration,
        width: aspect === '16:9' ? long : short,
        height: aspect === '16:9' ? short : long,
      }),
    })),
  );
}
