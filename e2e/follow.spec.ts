// The server follows every task itself, on a console of its own (a 429 pauses every question the
// console asks, which must not slow the worker's app for other specs): a task made in a tab that is
// then closed finishes in the record with its real duration; a 429 with Retry-After is waited out as
// asked and the card recovers; without it the card keeps its last state, marked stale, and "Check
// again" says why it cannot ask yet.
import type { APIRequestContext, Page } from '@playwright/test';
import { EMULATOR_DEFAULTS, expect, postSettings, test } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';

let server: ProdServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startProdServer(4188);
});
test.afterAll(async () => {
  await server?.stop();
});

const open = (page: Page, path: string) => page.goto(`${server.url}${path}`);
const card = (page: Page, id: string) => page.getByRole('article').filter({ hasText: id });

async function makeVideo(request: APIRequestContext, prompt: string): Promise<string> {
  const response = await request.post(`${server.url}/v1/image_to_video`, {
    data: { image_url: `${server.url}/emulator/samples/reference.png`, aspect_resolution: '720p', prompt },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
}

async function recorded(request: APIRequestContext, id: string) {
  const response = await request.get(`${server.url}/__console/tasks/${id}`);
  return (
    (await response.json()) as { data: { task: { status: string; createdAt: number; finishedAt?: number } } }
  ).data.task;
}

test('a task made in a tab that is then closed finishes in the record, with its real duration', async ({
  browser,
  request,
}) => {
  // About 5 s of work (image to video at a quarter of the emulator's real time).
  await postSettings(request, server.url, { ...EMULATOR_DEFAULTS, timeScale: 0.25 });
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page, '/tasks');
  const id = await makeVideo(page.request, 'A lantern on a pier at night');
  await expect(card(page, id)).toBeVisible();
  await context.close();

  // No browser anywhere: the record still reaches the end.
  await expect.poll(async () => (await recorded(request, id)).status, { timeout: 30_000 }).toBe('SUCCEEDED');
  const task = await recorded(request, id);
  // Seen finished within one interval (2 s in a task's first 20 s) of the service.
  expect(task.finishedAt! - task.createdAt).toBeLessThan(5_000 + 4_000);

  const later = await browser.newPage();
  await open(later, `/tasks/${id}`);
  const took = later.getByText(/^Took /);
  await expect(took).toBeVisible();
  const seconds = Number(/(\d+)s/.exec((await took.innerText()) ?? '')?.[1]);
  expect(seconds).toBeLessThan(10);
  await later.close();
});

test('a 429 with Retry-After: 3, twice, is waited out as asked: the card goes stale, then recovers', async ({
  page,
  request,
}) => {
  await postSettings(request, server.url, { ...EMULATOR_DEFAULTS, timeScale: 2 });
  await open(page, '/tasks');
  const id = await makeVideo(page.request, 'Rate limited briefly');
  const task = card(page, id);
  await expect(task.getByText(/^(PENDING|PROCESSING)$/)).toBeVisible();
  await postSettings(request, server.url, {
    failNextStatusQueries: { status: 429, count: 2, retryAfter: '3', taskId: id },
  });
  const stale = task.getByText('Stale', { exact: true });
  await expect(stale).toBeVisible({ timeout: 15_000 });
  const staleAt = Date.now();
  // The provider's 30 s, twice, would keep it stale for a minute.
  await expect(stale).toBeHidden({ timeout: 25_000 });
  expect(Date.now() - staleAt).toBeLessThan(20_000);
  await expect(task.getByText(/^(PENDING|PROCESSING|SUCCEEDED)$/)).toBeVisible();
});

test('a 429 without Retry-After keeps the last state, marked stale; Check again says when it can ask', async ({
  page,
  request,
}) => {
  await postSettings(request, server.url, { ...EMULATOR_DEFAULTS, timeScale: 2 });
  await open(page, '/tasks');
  const id = await makeVideo(page.request, 'Rate limited');
  await expect(card(page, id).getByText(/^(PENDING|PROCESSING)$/)).toBeVisible();
  await postSettings(request, server.url, { failNextStatusQueries: { status: 429, count: 5, taskId: id } });
  await expect(card(page, id).getByText('Stale', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(card(page, id).getByText(/^(PENDING|PROCESSING)$/)).toBeVisible();
  await card(page, id).getByRole('heading').getByRole('link').click();
  await expect(page.getByText(/Could not refresh the status \(HTTP 429\)/)).toBeVisible();
  // The service asked every instance for its 30 s: asking now is refused, and the page says so.
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /asked for a pause: try again in \d+ s/ }),
  ).toBeVisible();
  const health = (await (await request.get(`${server.url}/healthz`)).json()) as {
    following: { tasks: number; pausedUntil: string | null; lastError: { kind: string } | null };
  };
  expect(health.following.pausedUntil).not.toBeNull();
  expect(health.following.lastError?.kind).toBe('rate_limit');
  expect(health.following.tasks).toBeGreaterThanOrEqual(1);
});
