// Two console instances on one PostgreSQL database (a throwaway cluster), both proxying to one
// service (the standalone emulator), as behind a load balancer: a task created on one is known to
// the other, a callback received by one shows live on the other (and makes that instance ask the
// service, whose answer is what the record takes), and a restart of both loses nothing.
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORTS, E2E_TOKEN } from '../playwright.config';
import { testPostgres, type TestPostgres } from '../server/testing/postgres';
import { EMULATOR_DEFAULTS, postSettings } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';
import { startStandaloneEmulator, type StartedServer } from './standalone-servers';

// Servers on fixed ports, started once for the file: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

const SECRET = 'two-instances-secret-0123456789';
let postgres: TestPostgres;
let databaseUrl: string;
let servers: ProdServer[] = [];
/** The one service behind both instances: a standalone emulator of this file's own. */
let service: StartedServer;

async function startBoth() {
  const env = (name: string) => ({
    DATABASE_URL: databaseUrl,
    CALLBACK_SECRET: SECRET,
    API_BASE_URL: service.url,
    API_TOKEN: E2E_TOKEN,
    DATA_DIR: `test-results/e2e/two-instances-${name}`,
  });
  servers = await Promise.all([startProdServer(4185, env('a')), startProdServer(4186, env('b'))]);
  return servers as [ProdServer, ProdServer];
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  service = await startStandaloneEmulator(E2E_PORTS.twoInstancesEmulator);
  postgres = await testPostgres();
  databaseUrl = postgres.createDatabase('two_instances');
});
test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await service?.stop();
  postgres?.stop();
});

interface TaskList {
  data: { items: { id: string; status: string; source: string; prompt?: string }[] };
}
const listOn = async (page: Page, base: string, q: string) =>
  ((await (await page.request.get(`${base}/__console/tasks?q=${encodeURIComponent(q)}`)).json()) as TaskList)
    .data.items;

test('created on one instance, known, opened and updated live on the other; nothing lost on restart', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  let [a, b] = await startBoth();
  const creator = await (await browser.newContext()).newPage();
  const support = await (await browser.newContext()).newPage();

  // A creator makes an image on instance A.
  await creator.goto(`${a.url}/`);
  // The service fails it: the FAILED callback below is what its status answer then confirms.
  const prompt = `Two instances, one record ${Date.now()} emulator:fail`;
  await creator.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await creator.getByRole('button', { name: 'Generate images' }).click();
  const link = creator.getByRole('region', { name: /task created/ }).getByRole('link', { name: /^i2is-/ });
  await expect(link).toBeVisible();
  const taskId = (await link.textContent())!.trim();

  // Support staff on instance B: the server knows the task and what was asked, and it opens.
  await expect
    .poll(async () => (await listOn(support, b.url, prompt)).map((task) => task.id))
    .toEqual([taskId]);
  await support.goto(`${b.url}/tasks/${taskId}`);
  await expect(support.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(support.getByText(taskId).first()).toBeVisible();

  // B's Tasks screen, open on that task, will hear of the callback A receives.
  const watcher = await support.context().newPage();
  await watcher.goto(`${b.url}/tasks?q=${taskId}`);
  const card = watcher.getByRole('article').filter({ hasText: taskId });
  await expect(card).toBeVisible();

  // A callback received by A shows live on B's Callbacks screen.
  await support.goto(`${b.url}/callbacks`);
  await expect(support.getByText('Live updates: Live')).toBeVisible();
  const callback = {
    code: 0,
    msg: 'ok',
    task_type: 'image_generate',
    data: { task_id: taskId, status: 'FAILED', error_message: 'Failed on purpose, delivered to A' },
    // A callback is a hint: the card shows the service's own error_message, not this one.
  };
  expect((await support.request.post(`${a.url}/callbacks/${SECRET}`, { data: callback })).ok()).toBe(true);
  const list = support.getByRole('list', { name: 'Callbacks, newest first' });
  // Without a reload, on both instances; how fast is the benchmark's to say.
  await expect(list.getByRole('listitem').first().getByRole('link', { name: taskId })).toBeVisible();
  await expect
    .poll(async () => (await listOn(support, b.url, taskId))[0]?.status, { timeout: 20_000 })
    .toBe('FAILED');
  await expect(card.getByText('FAILED', { exact: true })).toBeVisible();
  await expect(card).toContainText('emulator:fail');
  await expect(card).not.toContainText('Failed on purpose, delivered to A');

  // Both restart: the task, its timeline and the callback are all still there.
  await Promise.all([a.stop(), b.stop()]);
  [a, b] = await startBoth();
  const detail = (await (await support.request.get(`${b.url}/__console/tasks/${taskId}`)).json()) as {
    data: { task: { status: string; prompt: string }; events: { source: string }[] };
  };
  expect(detail.data.task).toMatchObject({ status: 'FAILED', prompt });
  // The change came from a status answer (the one the callback triggered, or a poll), never the callback.
  expect(detail.data.events.map((event) => event.source)).not.toContain('callback');
  await support.goto(`${a.url}/callbacks`);
  await expect(
    support
      .getByRole('list', { name: 'Callbacks, newest first' })
      .getByRole('link', { name: taskId })
      .first(),
  ).toBeVisible();
});

test('a task running when both instances are killed (kill -9) finishes in the record after they restart, with no browser open', async ({
  request,
}) => {
  test.setTimeout(120_000);
  await Promise.all(servers.map((server) => server.stop()));
  let [a, b] = await startBoth();
  // About 18 s of work at the service: still running when both die.
  await postSettings(request, service.url, { timeScale: 1 });
  const made = await request.post(`${a.url}/v1/image_to_video`, {
    data: {
      image_url: `${service.url}/emulator/samples/reference.png`,
      aspect_resolution: '720p',
      prompt: 'Killed mid-flight',
    },
  });
  expect(made.ok()).toBe(true);
  const id = ((await made.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  const statusOn = async (base: string) =>
    (
      (await (await request.get(`${base}/__console/tasks/${id}`)).json()) as {
        data: { task: { status: string } };
      }
    ).data.task.status;
  // Followed: its first answer is in the record before anyone looks.
  await expect.poll(() => statusOn(b.url)).toMatch(/^(PENDING|PROCESSING)$/);
  await Promise.all([a.kill(), b.kill()]);
  [a, b] = await startBoth();
  await expect.poll(() => statusOn(a.url), { timeout: 60_000 }).toBe('SUCCEEDED');
  await postSettings(request, service.url, EMULATOR_DEFAULTS);
  const health = (await (await request.get(`${b.url}/healthz`)).json()) as { following: { tasks: number } };
  expect(health.following.tasks).toBe(0);
});
