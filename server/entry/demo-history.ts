// The demo's team and its last 30 days (`npm run demo`, DEMO=1): people in the users table with
// their roles, and a few hundred requests with their tasks and timelines, written with a handful of
// bulk INSERTs into an empty database so Tasks, task pages, requests and Insights have a believable
// history from the first screen. Deterministic (a seeded random generator): every run makes the
// same team, prompts, outcomes and durations, placed relative to the start time. Results link to the
// demo media the emulator serves (server/emulator/assets/demo/); failure messages read like the
// service's, never like the emulator's trigger words (docs/emulator.md).
import { sql } from 'kysely';
import { TASK_ID_PREFIXES } from '../../src/api/query/task-types';
import type { Role } from '../../src/api/roles';
import type { TaskType } from '../../src/api/schemas';
import type { Db } from '../db/database';
import {
  CLIP_SCENES,
  DEMO_ASSETS_PATH,
  PAINTED_PATH,
  SCENES,
  TRANSLATION_CLIP,
  paintedDemoName,
  shapeFor,
} from '../emulator/demo-scenes';
import { ROLE_FIELDS } from '../results/queue';
import { requestIdOf } from '../tasks/request-fields';
import { seedDemoReviews } from './demo-reviews';

interface DemoPerson {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Two creators, an admin who also makes things, and a viewer who only looks. */
export const DEMO_PEOPLE = {
  maya: { id: 'demo-maya', name: 'Maya Okafor', email: 'maya.okafor@example.com', role: 'creator' },
  jonas: { id: 'demo-jonas', name: 'Jonas Berg', email: 'jonas.berg@example.com', role: 'creator' },
  priya: { id: 'demo-priya', name: 'Priya Raman', email: 'priya.raman@example.com', role: 'admin' },
  tom: { id: 'demo-tom', name: 'Tom Keller', email: 'tom.keller@example.com', role: 'viewer' },
} as const satisfies Record<string, DemoPerson>;
const { maya, jonas, priya }: Record<'maya' | 'jonas' | 'priya', DemoPerson> = DEMO_PEOPLE;

const DAY = 24 * 3600_000;
export const DEMO_HISTORY_DAYS = 30;
/** The history stops before the live examples (demo.ts) begin, so the newest cards are theirs. */
const DEMO_HISTORY_GAP_MS = 90 * 60_000;

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

interface TaskRow {
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
interface EventRow {
  task_id: string;
  at: Date;
  source: 'created' | 'poll' | 'callback';
  status: string | null;
}
interface RequestRow {
  id: string;
  kind: TaskType;
  creator: string;
  creator_id: string;
  created_at: Date;
  params: string;
  title: string;
  task_ids: string;
}

interface DemoHistory {
  requests: RequestRow[];
  tasks: TaskRow[];
  events: EventRow[];
}

/** Paintings per scene prompt and shape: a request of four images shows four of them. */
const IMAGE_VARIANTS = 4;

/** Requests per hour of the day (UTC): a team in Europe, busiest mid-morning and mid-afternoon. */
const HOURS = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map(
  (hour) => [hour, [1, 3, 6, 8, 7, 3, 5, 8, 7, 5, 3, 2, 1, 1][hour - 7]!] as const,
);

/** The same team and 30 days every time, ending DEMO_HISTORY_GAP_MS before `now`. */
export function buildDemoHistory(origin: string, now: number): DemoHistory {
  const rng = random(30);
  const end = now - DEMO_HISTORY_GAP_MS;
  const start = now - DEMO_HISTORY_DAYS * DAY;
  const asset = (file: string) => `${origin}${DEMO_ASSETS_PATH}/${file}`;
  const history: DemoHistory = { requests: [], tasks: [], events: [] };
  /** Finished images so far, by scene: what image-to-video requests animate. */
  const imagesByScene = new Map<string, string[]>();

  const addRequest = (
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
  ) => {
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
  };

  const image = (at: number) => {
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
  };

  const translation = (at: number) => {
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
  };

  const clip = (at: number) => {
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
  };

  const firstDay = Math.floor(start / DAY) * DAY;
  for (let day = firstDay; day < end; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const requests = weekend ? Math.floor(rng.next() * 3) : 9 + Math.floor(rng.next() * 8);
    const times = Array.from(
      { length: requests },
      () => day + rng.weighted(HOURS) * 3600_000 + Math.floor(rng.next() * 3600_000),
    ).sort((a, b) => a - b);
    for (const at of times) {
      const kind = rng.weighted([
        [image, 5],
        [clip, 3],
        [translation, 2],
      ] as const);
      // Drawn even when out of range, so the history inside the window is the same at any start time of day.
      if (at >= start && at <= end) kind(at);
    }
  }
  return history;
}

/**
 * One INSERT of many rows as one JSON parameter (json_to_recordset): far faster in PGlite than
 * thousands of bound parameters. `types` names each column and its SQL type.
 */
async function insertRows(db: Db, table: string, rows: object[], types: Record<string, string>) {
  const columns = Object.keys(types);
  const quoted = columns.map((column) => `"${column}"`);
  await sql`insert into ${sql.table(table)} (${sql.raw(quoted.join(', '))})
    select ${sql.raw(columns.map((column, i) => `${quoted[i]}::${types[column]}`).join(', '))}
    from json_to_recordset(${JSON.stringify(rows)}::json)
    as x(${sql.raw(quoted.map((column) => `${column} text`).join(', '))})`.execute(db);
}

const TASK_COLUMNS = {
  id: 'text',
  kind: 'text',
  source: 'text',
  params: 'jsonb',
  batch: 'jsonb',
  prompt: 'text',
  name: 'text',
  language: 'text',
  creator: 'text',
  creator_id: 'text',
  status: 'text',
  result: 'jsonb',
  last_source: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  finished_at: 'timestamptz',
  last_checked_at: 'timestamptz',
  request_id: 'text',
} satisfies Record<keyof TaskRow, string>;
const REQUEST_COLUMNS = {
  id: 'text',
  kind: 'text',
  creator: 'text',
  creator_id: 'text',
  created_at: 'timestamptz',
  params: 'jsonb',
  title: 'text',
  task_ids: 'jsonb',
} satisfies Record<keyof RequestRow, string>;
const EVENT_COLUMNS = {
  task_id: 'text',
  at: 'timestamptz',
  source: 'text',
  status: 'text',
} satisfies Record<keyof EventRow, string>;

/**
 * Queues a kept copy of every seeded result, old ones too: the team keeps its results
 * (server/results), so the demo's 30 days show pictures, never "Result expired". The copy job takes
 * them from the emulator in-process; the usual backfill only queues links younger than 7 days, which
 * real links older than that would no longer answer (the emulator's demo files always do).
 */
async function queueKeptCopies(db: Db) {
  const roles = sql.raw(
    `(values ${Object.entries(ROLE_FIELDS)
      .map(([role, field]) => `('${role}', '${field}')`)
      .join(', ')}) as f(role, field)`,
  );
  await sql`insert into result_copies (task_id, role, idx, source_url)
    select t.id, f.role, 0, t.result->>f.field from tasks t cross join ${roles}
    where t.status = 'SUCCEEDED' and t.result->>f.field ~* '^https?://'
    order by t.finished_at desc
    on conflict (task_id, role, idx) do nothing`.execute(db);
}

/**
 * Seeds the team and its history into an empty database; does nothing when any task or request is
 * there already (a demo on a DATABASE_URL that holds real work). Returns whether it seeded.
 */
export async function seedDemoHistory(db: Db, origin: string, now = Date.now()): Promise<boolean> {
  const existing = await sql<{ any: boolean }>`
    select exists(select 1 from tasks) or exists(select 1 from requests) as any`.execute(db);
  if (existing.rows[0]?.any) return false;
  const history = buildDemoHistory(origin, now);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values(
        Object.values(DEMO_PEOPLE).map((person) => ({
          id: person.id,
          source: 'local' as const,
          subject: person.email,
          display_name: person.name,
          email: person.email,
          role: person.role,
          created_at: new Date(now - 45 * DAY),
          last_sign_in_at: new Date(now - DEMO_HISTORY_GAP_MS),
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await insertRows(trx, 'requests', history.requests, REQUEST_COLUMNS);
    await insertRows(trx, 'tasks', history.tasks, TASK_COLUMNS);
    await insertRows(trx, 'task_events', history.events, EVENT_COLUMNS);
    await queueKeptCopies(trx);
    await seedDemoReviews(trx, history.tasks, DEMO_PEOPLE, now);
  });
  await sql`analyze tasks`.execute(db);
  return true;
}
