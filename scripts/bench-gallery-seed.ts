// The gallery bench's team: `count` tasks in the server's record, as a month of a small team's work
// leaves them. Every task is first made in the built-in emulator (`seedTask`, as server/entry/demo.ts does)
// and asked for its status through the emulator's own /v1 route, so ids, statuses, error messages
// and result links (per-task images, videos and thumbnails under /emulator/media) are the emulator's.
// The newest few requests then go into the record exactly as traffic puts them there (the recorder's
// `created`, then a status lookup through the console's /v1); the rest are written in bulk, one
// INSERT ... SELECT from JSON per few thousand rows, in the shape the recorder gives them, and the
// bulk shape is checked against the recorder's rows so the two cannot drift apart unnoticed.
// Mix: half image generation, 30% image to video (animated from an earlier image), 20% translations
// (1–3 languages per request, batched); ~8% failed with the service's messages, ~25% of the newest 40
// still running, ~2% looked up by id rather than created here; seven creators and some unnamed.
import { sql } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { TaskType } from '../src/api/schemas';
import type { TaskOutcome } from '../server/emulator/magic-words';
import { jitterFor, PHASES } from '../server/emulator/tasks';
import type { NodeApp } from '../server/app/node-app';
import type { TasksTableRow } from '../server/db/schema';
import { createTaskRecorder } from '../server/tasks/recorder';

const SEC = 1000;
const MIN = 60 * SEC;

/** One task of the plan, newest first; `id` and `answer` come from the emulator. */
interface PlannedTask {
  id: string;
  kind: TaskType;
  source: 'created' | 'lookup';
  /** The creation request's body (null for a task looked up by id). */
  params: Record<string, unknown> | null;
  /** Index of the request in the plan: the tasks of one request share it (translations). */
  request: number;
  language?: string;
  creator: string | null;
  createdAt: number;
  outcome: TaskOutcome;
  /** The emulator's status answer (`data` of `GET /v1/<kind>/<id>`), asked when the plan was made. */
  answer: Record<string, unknown>;
}

interface GallerySeed {
  /** Newest first, as the Tasks screen lists them. */
  tasks: PlannedTask[];
}

// A deterministic mix (same plan every run): mulberry32.
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  'A lighthouse on a cliff',
  'A ceramic coffee mug on linen',
  'Terraced rice fields',
  'A cozy reading nook',
  'A red vintage bicycle against a brick wall',
  'A fox in fresh snow',
  'A glass perfume bottle on wet stone',
  'A tram crossing a bridge',
  'Sneakers floating in mid-air',
  'A bowl of ramen with steam rising',
  'A mountain cabin under the northern lights',
  'A robot barista pouring latte art',
  'Sunflowers in a blue vase',
  'A desert highway with a lone motel sign',
];
const SETTINGS = [
  'at dusk',
  'in morning light',
  'after rain',
  'at golden hour',
  'under studio lights',
  'in thick fog',
  'on a windy afternoon',
  'at night, neon reflections',
];
const STYLES = [
  'cinematic',
  'watercolor',
  'isometric illustration',
  'product photography, 85 mm',
  'soft pastel palette',
  'film grain, 35 mm',
  'flat vector art',
  'hyperreal, shallow depth of field',
];
const MOTIONS = [
  'Slow camera push-in',
  'Gentle parallax from left to right',
  'Steam and light drifting',
  'Orbit around the subject',
  'Handheld walk towards it',
  'Time-lapse of the light changing',
];
const VIDEOS = [
  'Product tour',
  'Onboarding, step 3',
  'Spring campaign teaser',
  'Quarterly update',
  'How to reset your password',
  'Customer story: Nordlicht',
  'Webinar highlights',
];
const LANGUAGES = ['English', 'Spanish', 'French', 'German', 'Japanese', 'Korean', 'Chinese', 'Portuguese'];
const CREATORS = ['Maya', 'Jonas', 'Priya', 'Kenji', 'Lucía', 'Tom', 'Aiko'];
const FAILURES = [
  'The prompt was rejected by content moderation',
  'Reference image is too small: the short side must be at least 300 px',
  'The source video could not be decoded',
  'Timed out waiting for a free GPU, please try again',
  'Internal error while rendering the output (code 5003)',
  'The input video is longer than 10 minutes',
];
const RATIOS = ['1:1', '9:16', '16:9', '4:3', '3:2'];
const RUNNING_STATUS: Record<TaskType, string> = {
  image_generate: 'GENERATING',
  video_translate: 'PROCESSING',
  image_to_video: 'PROCESSING',
};
/**
 * The newest requests, recorded through the recorder and /v1 as traffic records them: with this
 * plan, finished, failed and running tasks of every kind, and a translation for two languages.
 */
const RECORDED_REQUESTS = 12;

const pick = <T>(next: () => number, list: readonly T[]) => list[Math.floor(next() * list.length)]!;

interface PlannedRequest {
  kind: TaskType;
  source: 'created' | 'lookup';
  createdAt: number;
  creator: string | null;
  languages: string[];
  outcomes: TaskOutcome[];
  draw: () => number;
}

/**
 * Makes `count` tasks in the emulator (newest at `now` − 45 s, then a request every 1–7 min going
 * back, a few weeks for 10,000) and asks each one's status there. Nothing is recorded yet.
 */
export async function planGallerySeed(
  emulator: NonNullable<NodeApp['emulator']>,
  origin: string,
  count: number,
  now = Date.now(),
): Promise<GallerySeed> {
  const next = random(20261124);
  // The requests' shapes, newest first.
  const requests: PlannedRequest[] = [];
  let at = now - 45 * SEC;
  for (let placed = 0; placed < count;) {
    const roll = next();
    const kind: TaskType = roll < 0.5 ? 'image_generate' : roll < 0.8 ? 'image_to_video' : 'video_translate';
    const lookup = requests.length >= RECORDED_REQUESTS && next() < 0.02;
    const spread = next();
    // Among the recorded requests, translations are for two languages (the recorder's batch shape).
    const languageCount = requests.length < RECORDED_REQUESTS ? 2 : spread < 0.6 ? 1 : spread < 0.85 ? 2 : 3;
    const wanted = kind === 'video_translate' && !lookup ? languageCount : 1;
    const size = Math.min(wanted, count - placed);
    const start = Math.floor(next() * LANGUAGES.length);
    const languages = Array.from({ length: size }, (_, i) => LANGUAGES[(start + i) % LANGUAGES.length]!);
    const outcomes = languages.map((): TaskOutcome => {
      if (placed < 40 && next() < 0.25) return { type: 'stuck', status: RUNNING_STATUS[kind] };
      if (next() < 0.08) return { type: 'fail', errorMessage: pick(next, FAILURES) };
      return { type: 'succeed' };
    });
    const named = next() < 0.04 ? null : CREATORS[Math.floor(next() ** 1.6 * CREATORS.length)]!;
    requests.push({
      kind,
      source: lookup ? 'lookup' : 'created',
      createdAt: at,
      creator: lookup ? null : named,
      languages,
      outcomes,
      draw: random(requests.length + 1),
    });
    placed += size;
    at -= placed < 15 ? 20 * SEC + next() * 40 * SEC : MIN + next() * 6 * MIN;
  }

  // Into the emulator oldest first, so an image-to-video task can animate an earlier image.
  const tasks: PlannedTask[] = [];
  let lastImage: string | undefined;
  for (let index = requests.length - 1; index >= 0; index--) {
    const { kind, draw, createdAt, languages, outcomes } = requests[index]!;
    const made: PlannedTask[] = [];
    const base = { request: index, kind, source: requests[index]!.source, creator: requests[index]!.creator };
    if (kind === 'image_generate') {
      const prompt = `${pick(draw, SUBJECTS)} ${pick(draw, SETTINGS)}, ${pick(draw, STYLES)}`;
      const ratio = pick(draw, RATIOS);
      const quality = pick(draw, ['1K', '2K', '2K', '4K']);
      const module = draw() < 0.7 ? 'std' : 'pro';
      const outcome = outcomes[0]!;
      const id = emulator.seedTask({
        kind,
        params: { prompt, ratio, quality, module },
        createdAt,
        outcome,
        origin,
      });
      const params = { prompt, module, generate_count: 1, image_quality: quality, image_ratio: ratio };
      made.push({ ...base, id, params, createdAt, outcome, answer: {} });
      if (outcome.type === 'succeed') lastImage = id;
    } else if (kind === 'image_to_video') {
      const prompt = `${pick(draw, MOTIONS)}. ${pick(draw, SUBJECTS)} ${pick(draw, SETTINGS)}`;
      const model = draw() < 0.7 ? 'V' : 'KL';
      const aspectRatio = draw() < 0.6 ? '9:16' : '16:9';
      const resolution = model === 'KL' ? '720p' : draw() < 0.5 ? '720p' : '1080p';
      const duration = model === 'KL' ? 5 : 8;
      const audio = model === 'V' && draw() < 0.4;
      const outcome = outcomes[0]!;
      const id = emulator.seedTask({
        kind,
        params: { prompt, model, aspectRatio, resolution, duration, audio },
        createdAt,
        outcome,
        origin,
      });
      const params = {
        model,
        prompt,
        image_url: lastImage
          ? `${origin}/emulator/media/images/${lastImage}.svg`
          : `${origin}/emulator/samples/reference.jpg`,
        aspect_ratio: aspectRatio,
        aspect_resolution: resolution,
        duration,
        ...(model === 'V' && { generate_audio: audio }),
        generate_count: 1,
      };
      made.push({ ...base, id, params, createdAt, outcome, answer: {} });
    } else {
      const name = pick(draw, VIDEOS);
      const videoUrl = `${origin}/emulator/samples/video.mp4`;
      const enableCaption = draw() < 0.7;
      const params = {
        target_languages: languages,
        video_url: videoUrl,
        name,
        enable_caption: enableCaption,
      };
      languages.forEach((language, i) => {
        const outcome = outcomes[i]!;
        const id = emulator.seedTask({
          kind,
          params: { language, name: `${language}-${name}`, videoUrl, enableCaption },
          createdAt,
          outcome,
          origin,
        });
        made.push({ ...base, id, params, language, createdAt, outcome, answer: {} });
      });
    }
    for (const task of made) {
      const response = await emulator.app.request(`${origin}/v1/${task.kind}/${task.id}`);
      const body = (await response.json()) as { code?: number; data?: Record<string, unknown> };
      if (body.code !== 0 || !body.data) throw new Error(`the emulator does not know ${task.id}`);
      task.answer = body.data;
      // A looked-up task has neither request nor creator; the record names it by what the lookup said.
      if (task.source === 'lookup') task.params = null;
    }
    tasks.push(...made.reverse());
  }
  return { tasks: tasks.reverse() };
}

// What the recorder (server/tasks/recorder.ts) writes for a task, field by field.
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const cleanFields = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined && value !== null));

interface RecordedShape {
  id: string;
  kind: string;
  source: string;
  params: Record<string, unknown> | null;
  batch: string[] | null;
  prompt: string | null;
  name: string | null;
  language: string | null;
  creator: string | null;
  status: string;
  result: Record<string, unknown>;
  last_source: string;
  last_error: null;
  files: null;
}

function shapeOf(task: PlannedTask, batch: string[] | null): RecordedShape {
  const result = cleanFields(task.answer);
  const params = task.params;
  return {
    id: task.id,
    kind: task.kind,
    source: task.source,
    params,
    batch: batch && batch.length > 1 ? batch : null,
    prompt: text(params?.prompt),
    // A status answer's name wins over the request's; a language is the task's or the answer's.
    name: text(result.name) ?? text(params?.name),
    language: task.language ?? text(result.language),
    creator: task.creator,
    status: String(task.answer.status),
    result,
    last_source: task.source === 'lookup' ? 'lookup' : 'poll',
    last_error: null,
    files: null,
  };
}

/** When the browser's polls saw each status: a first poll ~2 s in, then each phase as it began. */
function timeline(task: PlannedTask): { at: number; source: string; status: string | null }[] {
  const status = String(task.answer.status);
  const seenLate = 1.5 * SEC + (task.createdAt % 1500);
  if (task.source === 'lookup') return [{ at: task.createdAt, source: 'lookup', status }];
  const events = [{ at: task.createdAt, source: 'created', status: null as string | null }];
  const scale = jitterFor(task.id);
  let elapsed = 0;
  for (const phase of PHASES[task.kind]) {
    if (phase.status === status) break;
    events.push({ at: task.createdAt + elapsed * scale + seenLate, source: 'poll', status: phase.status });
    elapsed += phase.ms;
    if (task.outcome.type === 'stuck') break;
  }
  events.push({ at: task.createdAt + elapsed * scale + seenLate, source: 'poll', status });
  return events;
}

function batchesOf(tasks: PlannedTask[]) {
  const ids = new Map<number, string[]>();
  for (const task of tasks) ids.set(task.request, [...(ids.get(task.request) ?? []), task.id]);
  return ids;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Records `seed.tasks.slice(from, to)` (newest first) in the team's record; `from` and `to` must
 * not split one of the newest RECORDED_REQUESTS requests. Returns how many tasks went through the
 * recorder and /v1 rather than the bulk insert.
 */
export async function recordGallerySeed(
  nodeApp: NodeApp,
  seed: GallerySeed,
  from: number,
  to: number,
): Promise<{ recorded: number }> {
  const { db } = await nodeApp.database;
  const slice = seed.tasks.slice(from, to);
  const batches = batchesOf(seed.tasks);
  const viaTraffic = slice.filter((task) => task.request < RECORDED_REQUESTS);
  const bulk = slice.filter((task) => task.request >= RECORDED_REQUESTS);

  // The newest requests: what a browser creating them and polling once leaves in the record.
  const recorder = createTaskRecorder(nodeApp.database);
  for (const request of new Set(viaTraffic.map((task) => task.request))) {
    const tasks = viaTraffic.filter((task) => task.request === request);
    const first = tasks[0]!;
    const created = tasks.map((task) => ({ id: task.id, language: task.language }));
    await recorder.created(first.kind, first.params!, created, first.creator, new Date(first.createdAt));
  }
  for (const task of viaTraffic) {
    const res = await nodeApp.app.request(`http://127.0.0.1/v1/${task.kind}/${task.id}`);
    if (res.status !== 200) throw new Error(`seeded task ${task.id}: /v1 answered HTTP ${res.status}`);
  }
  // The bulk shape must be the recorder's, or the bench would measure a record no server writes.
  if (viaTraffic.length) {
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where(
        'id',
        'in',
        viaTraffic.map((task) => task.id),
      )
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const task of viaTraffic) {
      const row = byId.get(task.id) as TasksTableRow | undefined;
      const expected = shapeOf(task, batches.get(task.request) ?? null);
      for (const [key, value] of Object.entries(expected)) {
        const actual = row?.[key as keyof TasksTableRow];
        if (!isDeepStrictEqual(actual, value))
          throw new Error(
            `bench seed differs from the recorder on ${task.id}.${key}: ${JSON.stringify(actual)} vs ${JSON.stringify(value)}`,
          );
      }
    }
  }

  const CHUNK = 2500;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < bulk.length; start += CHUNK) {
      const chunk = bulk.slice(start, start + CHUNK);
      const rows = chunk.map((task) => {
        const events = timeline(task);
        const last = events.at(-1)!.at;
        const terminal = task.outcome.type !== 'stuck';
        // A running task's last check is a few seconds ago; a finished one's was when it finished.
        const checked = terminal ? last : Math.max(last, Date.now() - 3 * SEC);
        return {
          ...shapeOf(task, batches.get(task.request) ?? null),
          created_at: iso(task.createdAt),
          updated_at: iso(checked),
          finished_at: terminal ? iso(last) : null,
          last_checked_at: iso(checked),
        };
      });
      await sql`
        insert into tasks (id, kind, source, params, batch, prompt, name, language, creator, status,
          result, last_source, created_at, updated_at, finished_at, last_checked_at)
        select id, kind, source, params, batch, prompt, name, language, creator, status,
          result, last_source, created_at, updated_at, finished_at, last_checked_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as t(id text, kind text, source text,
          params jsonb, batch jsonb, prompt text, name text, language text, creator text, status text,
          result jsonb, last_source text, created_at timestamptz, updated_at timestamptz,
          finished_at timestamptz, last_checked_at timestamptz)`.execute(trx);
      const events = chunk.flatMap((task) =>
        timeline(task).map((event) => ({ task_id: task.id, ...event, at: iso(event.at) })),
      );
      await sql`
        insert into task_events (task_id, at, source, status)
        select task_id, at, source, status
        from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
          as t(task_id text, at timestamptz, source text, status text)
        order by at`.execute(trx);
    }
  });
  await sql`analyze tasks`.execute(db);
  return { recorded: viaTraffic.length };
}
