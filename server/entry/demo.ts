// `npm run demo` (DEMO=1): the production server on the emulator, with example tasks in every state
// (finished images and videos, failures with their message; none stays running) so a stakeholder
// demo starts from a full gallery. The tasks live in the emulator's memory and, like any task made
// through the console, in the team's record (a throwaway in-memory database unless DATABASE_URL is
// set); `/__console/config` lists them (`demo: true`, `demoRun`, `demoTasks`) and the app imports
// them into an empty history.
import { randomBytes } from 'node:crypto';
import type { DemoTask } from '../../src/api/console-info-schema';
import type { SeedTaskInput } from '../emulator/engine';
import { jitterFor, PHASES } from '../emulator/tasks';
import { createNodeApp } from '../app/node-app';
import type { ProdConfig } from '../app/prod-config';
import { createProdApp, type ProdApp } from '../app/prod-app';
import { createTaskRecorder, type Creator } from '../tasks/recorder';
import { DEMO_PEOPLE, FAILURE_MESSAGES, seedDemoHistory } from './demo-history';
import { DEMO_BOARD_NAME, seedDemoBoard } from './demo-board';

type Outcome = SeedTaskInput['outcome'];
const MIN = 60_000;
/** A failure in the service's words (demo-history.ts), not the emulator's `emulator:fail` message. */
const failing = (kind: DemoTask['kind']): Outcome => ({
  type: 'fail',
  errorMessage: FAILURE_MESSAGES[kind][0]!,
});

interface DemoImage {
  prompt: string;
  ratio: string;
  quality: string;
  module: string;
  ago: number;
  outcome?: Outcome;
}
interface DemoTranslation {
  language: string;
  ago: number;
  outcome?: Outcome;
}
/** An image-to-video task animated from one of IMAGES (by index), as the Animate button makes them. */
interface DemoClip {
  prompt: string;
  from: number;
  aspectRatio: '16:9' | '9:16';
  audio: boolean;
  ago: number;
  outcome?: Outcome;
}

// Prompts the demo's rendered scenes answer (server/emulator/demo-scenes.ts), so each result looks
// like what was asked for.
const IMAGES: DemoImage[] = [
  {
    prompt: 'Northern lights over a frozen lake, stars, long exposure',
    ratio: '9:16',
    quality: '2K',
    module: 'std',
    ago: 30,
  },
  {
    prompt: 'Sand dunes at golden hour, long shadows, minimal composition',
    ratio: '1:1',
    quality: '2K',
    module: 'pro',
    ago: 4,
  },
  {
    prompt: 'Calm ocean at sunset, sun reflecting on gentle waves',
    ratio: '16:9',
    quality: '4K',
    module: 'pro',
    ago: 2,
  },
  {
    prompt: 'Misty pine forest on rolling hills, moody, overcast light',
    ratio: '16:9',
    quality: '1K',
    module: 'std',
    ago: 25,
    outcome: failing('image_generate'),
  },
  {
    prompt: 'Snow-capped peaks under a full moon, starry sky, blue hour',
    ratio: '16:9',
    quality: '2K',
    module: 'std',
    ago: 9,
  },
];
// The newest cards are finished: a stakeholder's first screen shows results.
const TRANSLATIONS: DemoTranslation[] = [
  { language: 'Spanish', ago: 50 },
  { language: 'French', ago: 50 },
  { language: 'German', ago: 40, outcome: failing('video_translate') },
  { language: 'Japanese', ago: 14 },
];
const CLIPS: DemoClip[] = [
  {
    prompt: 'Slow tilt up from the lake to the northern lights. Speak "Every night, the sky comes alive."',
    from: 0,
    aspectRatio: '9:16',
    audio: true,
    ago: 20,
  },
  {
    prompt: 'The aurora ripples slowly while the camera holds still',
    from: 0,
    aspectRatio: '9:16',
    audio: false,
    ago: 12,
  },
];

/** Seeds the emulator and returns the same tasks as the browser's history records, newest first. */
function seedDemoTasks(seed: (input: SeedTaskInput) => string, origin: string, now = Date.now()): DemoTask[] {
  const tasks: DemoTask[] = [];
  const add = (
    input: SeedTaskInput,
    params: Record<string, unknown>,
    ago: number,
    extra: { language?: string; animatedFrom?: string } = {},
  ) => {
    const createdAt = now - ago * MIN;
    const id = seed({ ...input, createdAt, origin });
    tasks.push({
      id,
      kind: input.kind,
      source: 'created',
      params,
      ...extra,
      createdAt,
      updatedAt: createdAt,
      status: '',
    });
    return id;
  };
  const imageIds = IMAGES.map((image) => {
    const { prompt, ratio, quality, module } = image;
    return add(
      { kind: 'image_generate', params: { prompt, ratio, quality, module }, outcome: image.outcome },
      { prompt, module, generate_count: 1, image_quality: quality, image_ratio: ratio },
      image.ago,
    );
  });
  const videoUrl = `${origin}/emulator/samples/video.mp4`;
  for (const translation of TRANSLATIONS) {
    const name = `${translation.language}-Product tour`;
    add(
      {
        kind: 'video_translate',
        params: { language: translation.language, name, videoUrl, enableCaption: true },
        outcome: translation.outcome,
      },
      {
        target_languages: TRANSLATIONS.filter((t) => t.ago === translation.ago).map((t) => t.language),
        video_url: videoUrl,
        name: 'Product tour',
        enable_caption: true,
      },
      translation.ago,
      { language: translation.language },
    );
  }
  for (const clip of CLIPS) {
    const imageId = imageIds[clip.from]!;
    const { prompt, aspectRatio, audio } = clip;
    add(
      {
        kind: 'image_to_video',
        params: { prompt, model: 'V', aspectRatio, resolution: '1080p', duration: 8, audio },
        outcome: clip.outcome,
      },
      {
        model: 'V',
        prompt,
        image_url: `${origin}/emulator/media/images/${imageId}.png`,
        aspect_ratio: aspectRatio,
        aspect_resolution: '1080p',
        duration: 8,
        generate_audio: audio,
        generate_count: 1,
      },
      clip.ago,
      { animatedFrom: imageId },
    );
  }
  // Model KL from several demo images at once (multi-reference).
  add(
    {
      kind: 'image_to_video',
      params: {
        prompt: 'The dunes meet the sea at sunset, one calm scene',
        model: 'KL',
        aspectRatio: '16:9',
        resolution: '720p',
        duration: 5,
        audio: false,
      },
    },
    {
      model: 'KL',
      prompt: 'The dunes meet the sea at sunset, one calm scene',
      reference_images: [1, 2].map((index) => `${origin}/emulator/media/images/${imageIds[index]}.png`),
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
      duration: 5,
      generate_count: 1,
    },
    1,
  );
  return tasks.sort((a, b) => b.createdAt - a.createdAt);
}

/** Where the browser will reach this server; result links of seeded tasks are built on it. */
export function demoOrigin(config: ProdConfig): string {
  if (config.server.publicBaseUrl) return new URL(config.server.publicBaseUrl).origin;
  const host = ['0.0.0.0', '::', '[::]'].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.port}`;
}

/** Who made each kind of example task: people of the seeded team (demo-history.ts). */
const DEMO_CREATORS: Record<DemoTask['kind'], Creator> = {
  image_generate: DEMO_PEOPLE.maya,
  video_translate: DEMO_PEOPLE.jonas,
  image_to_video: DEMO_PEOPLE.maya,
};

/**
 * Puts the example tasks in the team's record as if they had been created through the console at
 * their times, then looks each one up through the console's own /v1 (the traffic any poll makes),
 * so the Tasks screen and every task page read them from the record from the first load.
 */
async function recordDemoTasks(nodeApp: ReturnType<typeof createNodeApp>, tasks: DemoTask[]) {
  const recorder = createTaskRecorder(nodeApp.database);
  // One request per submission: the translations asked for together share one.
  const requests = new Map<string, DemoTask[]>();
  for (const task of [...tasks].reverse()) {
    const key = `${task.kind} ${task.createdAt} ${JSON.stringify(task.params)}`;
    requests.set(key, [...(requests.get(key) ?? []), task]);
  }
  for (const group of requests.values()) {
    const first = group[0]!;
    await recorder.created(
      first.kind,
      first.params,
      group.map((task) => ({ id: task.id, language: task.language })),
      DEMO_CREATORS[first.kind],
      new Date(first.createdAt),
    );
  }
  for (const task of tasks) {
    const res = await nodeApp.app.request(`http://127.0.0.1/v1/${task.kind}/${encodeURIComponent(task.id)}`);
    if (res.status !== 200)
      throw new Error(`demo task ${task.id} could not be looked up: HTTP ${res.status}`);
  }
  // The lookup just now is when the record learned of the outcome; the task finished long before,
  // after its emulated duration ("Took 23 s", not "Took 2 h").
  const { db } = await nodeApp.database;
  for (const task of tasks) {
    const finished = new Date(
      task.createdAt + PHASES[task.kind].reduce((sum, p) => sum + p.ms, 0) * jitterFor(task.id),
    );
    await db
      .updateTable('tasks')
      .set({ finished_at: finished, updated_at: finished })
      .where('id', '=', task.id)
      .where('finished_at', 'is not', null)
      .execute();
    await db
      .updateTable('task_events')
      .set({ at: finished })
      .where('task_id', '=', task.id)
      .where('status', 'in', ['SUCCEEDED', 'FAILED'])
      .execute();
  }
}

/** The demo's tasks live in the emulator's memory: its record does too, unless DATABASE_URL says otherwise. */
export function demoDatabaseUrl(databaseUrl: string | undefined): string {
  return databaseUrl ?? 'memory://';
}

export async function createDemoApp(config: ProdConfig): Promise<ProdApp> {
  const server = { ...config.server, databaseUrl: demoDatabaseUrl(config.server.databaseUrl) };
  const nodeApp = createNodeApp(server);
  if (!nodeApp.emulator) throw new Error('DEMO=1 needs the built-in emulator: unset API_BASE_URL');
  const origin = demoOrigin(config);
  const demoTasks = seedDemoTasks(nodeApp.emulator.seedTask, origin);
  try {
    // The team's last 30 days first, into an empty record only; then the live examples on top.
    const seeded = await seedDemoHistory((await nodeApp.database).db, origin);
    await recordDemoTasks(nodeApp, demoTasks);
    // A board of the team's picks, shared: on a fresh record only, like the history.
    const shared = seeded
      ? await seedDemoBoard(
          (await nodeApp.database).db,
          demoTasks.map((task) => task.id),
        )
      : undefined;
    if (shared)
      console.log(
        `Demo share link of the board "${DEMO_BOARD_NAME}" (opens without an account): ${origin}${shared}`,
      );
  } catch (error) {
    await nodeApp.close();
    throw error;
  }
  const demoRun = randomBytes(8).toString('hex');
  // Seeded media links are absolute; opening the demo as localhost vs 127.0.0.1 must not trip the CSP.
  const alias = origin.replace('//127.0.0.1:', '//localhost:');
  const demoConfig: ProdConfig = { ...config, server, mediaOrigins: [...config.mediaOrigins, origin, alias] };
  return createProdApp(demoConfig, { nodeApp, consoleInfoExtra: () => ({ demo: true, demoRun, demoTasks }) });
}
