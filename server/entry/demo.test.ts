import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DemoTask } from '../../src/api/console-info-schema';
import { createDemoApp, demoDatabaseUrl, demoOrigin } from './demo';
import type { ProdApp } from '../app/prod-app';
import { copyOfTemplate } from '../testing/pglite-template';
import { makeDist, prodConfig } from '../testing/prod-server';

const PATHS = {
  image_generate: 'image_generate',
  video_translate: 'video_translate',
  image_to_video: 'image_to_video',
} as const;

let dist: ReturnType<typeof makeDist>;
let dataDir: string;
let demo: ProdApp;
/** The demo's share link of its board, as printed at start. */
let sharePath: string | undefined;
// One demo for every test: they only read it. Its record is the run's migrated PGlite rather than the
// new in-memory one a demo makes (an initdb in WebAssembly, seconds of CPU; what `memory://` opens is
// tested in server/db), seeded with 30 days of tasks as a demo is.
beforeAll(async () => {
  dist = makeDist();
  dataDir = copyOfTemplate();
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    const config = prodConfig(dist.dir, { DEMO: '1', DATA_DIR: dataDir, PORT: '4189' });
    // '' is not "unset": the demo keeps it, and the record is the PGlite in DATA_DIR.
    demo = await createDemoApp({ ...config, server: { ...config.server, databaseUrl: '' } });
    sharePath = log.mock.calls
      .flat()
      .join('\n')
      .match(/\/s\/[A-Za-z0-9_-]{43}/)?.[0];
  } finally {
    log.mockRestore();
  }
}, 90_000);
afterAll(async () => {
  await demo?.close();
  dist.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo mode', { timeout: 90_000 }, () => {
  it('lists seeded tasks in /__console/config and the emulator knows every one, in every state', async () => {
    const info = (await (await demo.app.request('/__console/config')).json()) as {
      demo: boolean;
      demoRun: string;
      demoTasks: DemoTask[];
    };
    expect(info.demo).toBe(true);
    expect(info.demoRun).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(info.demoTasks.map((t) => t.kind))).toEqual(
      new Set(['image_generate', 'video_translate', 'image_to_video']),
    );

    const statuses: Record<string, string[]> = {};
    for (const task of info.demoTasks) {
      expect(task).toMatchObject({ source: 'created', status: '' });
      const res = await demo.app.request(`/v1/${PATHS[task.kind]}/${task.id}`);
      expect(res.status, task.id).toBe(200);
      const body = (await res.json()) as { data: { status: string } | { status: string }[] };
      const data = Array.isArray(body.data) ? body.data[0] : body.data;
      (statuses[task.kind] ??= []).push(data?.status ?? '?');
    }
    for (const kind of ['image_generate', 'video_translate'] as const) {
      expect(statuses[kind], kind).toEqual(expect.arrayContaining(['SUCCEEDED', 'FAILED']));
    }
    // No example stays running: a stakeholder's first screen never shows "Working on it…" for good.
    const all = Object.values(statuses).flat();
    expect(
      all.every((s) => s === 'SUCCEEDED' || s === 'FAILED'),
      all.join(' '),
    ).toBe(true);
    expect(statuses.image_to_video).toContain('SUCCEEDED');
  });

  it('puts every example task in the team record at its time, by its creator, with its state and error', async () => {
    const info = (await (await demo.app.request('/__console/config')).json()) as { demoTasks: DemoTask[] };
    const res = await demo.app.request('/__console/tasks?limit=50');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as {
      data: {
        items: {
          id: string;
          createdAt: number;
          creator?: string;
          status: string;
          result: Record<string, unknown>;
        }[];
        counts: Record<string, number>;
      };
    };
    // Newest first, then by id, as every list page is ordered (two translations of one request share a time).
    const expected = [...info.demoTasks].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    // The live examples are the newest; the seeded 30 days (demo-history.ts) come after them.
    const newest = data.items.slice(0, expected.length);
    expect(newest.map((task) => task.id)).toEqual(expected.map((task) => task.id));
    for (const [index, task] of newest.entries()) {
      expect(task.createdAt).toBe(expected[index]!.createdAt);
      expect(task.creator).toMatch(/^(Maya Okafor|Jonas Berg)$/);
      expect(task.status).not.toBe('');
    }
    expect(data.counts.all).toBeGreaterThan(info.demoTasks.length + 300);
    expect(data.counts.failed).toBeGreaterThanOrEqual(2);
    expect(data.counts.running).toBe(0);
    const failed = newest.filter((task) => task.status === 'FAILED');
    expect(failed.every((task) => String(task.result.error_message).length > 0)).toBe(true);
    // Failures read like the service's, never like the emulator's trigger words.
    for (const task of data.items) expect(JSON.stringify(task)).not.toMatch(/emulator:|Emulated/);
    const page = await demo.app.request(`/__console/tasks/${info.demoTasks.at(-1)!.id}`);
    expect(page.status).toBe(200);
    // The seeded history's results are served: an image and a clip with its poster.
    const older = data.items.slice(expected.length).filter((task) => task.status === 'SUCCEEDED');
    const links = older.flatMap((task) =>
      [task.result.image_url, task.result.video_url, task.result.thumbnail_url].filter(Boolean),
    );
    expect(links.length).toBeGreaterThan(0);
    for (const link of new Set(links.map(String))) {
      const media = await demo.app.request(new URL(link).pathname);
      expect(media.status, link).toBe(200);
      expect(media.headers.get('content-type'), link).toMatch(/^(image\/(png|jpeg)|video\/mp4)$/);
    }
  });

  it("holds a board of the team's picks and a live share link to it that opens with no account", async () => {
    const board = (await (await demo.app.request('/__console/boards/b-demo-team-picks')).json()) as {
      data: { items: { status: string }[] };
    };
    expect(board.data.items.length).toBeGreaterThanOrEqual(6);
    expect(board.data.items.every((item) => item.status === 'SUCCEEDED')).toBe(true);
    expect(sharePath).toBeDefined();
    // Each result shows once the copy job has kept it: the board's first, in the first seconds.
    await expect
      .poll(
        async () =>
          ((await (await demo.app.request(sharePath!)).text()).match(/data-share-item/g) ?? []).length,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(board.data.items.length);
    const page = await demo.app.request(sharePath!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Team picks: spring campaign');
  });

  it('keeps the demo record in memory unless DATABASE_URL is set', () => {
    expect(demoDatabaseUrl(undefined)).toBe('memory://');
    expect(demoDatabaseUrl('postgres://db.internal/console')).toBe('postgres://db.internal/console');
  });

  it('allows seeded media under the CSP whichever loopback name the browser used', async () => {
    const csp = (await demo.app.request('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('http://127.0.0.1:4189');
    expect(csp).toContain('http://localhost:4189');
  });

  it('builds media links on PUBLIC_BASE_URL when set', () => {
    expect(
      demoOrigin(
        prodConfig(dist.dir, { PUBLIC_BASE_URL: 'https://demo.example.com/', ALLOW_OPEN_ACCESS: '1' }),
      ),
    ).toBe('https://demo.example.com');
    expect(
      demoOrigin(prodConfig(dist.dir, { HOST: '0.0.0.0', PORT: '9000', APP_PASSWORD: 'long enough pw' })),
    ).toBe('http://127.0.0.1:9000');
  });
});
