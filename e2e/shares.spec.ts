// Share links end to end: on a console that asks everyone to sign in (an authenticating proxy's
// header), a creator shares a board from its page; a browser with no session opens the link and sees
// exactly that board's results, large too, and nothing else answers it (the Tasks screen sends it to
// sign in, the record's API says 401); after the creator revokes the link it answers 404. A request is
// shared from its page the same way.
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';

// A server of its own on a fixed port, started once for the file.
test.describe.configure({ mode: 'default' });

const run = Date.now().toString(36);
const ADA = `Ada.${run}`;
const CY = `Cy.${run}`;
const USER_HEADER = 'x-forwarded-user';
let server: ProdServer;

test.beforeAll(async () => {
  server = await startProdServer(4067, {
    TRUSTED_AUTH_HEADER: USER_HEADER,
    TRUSTED_PROXIES: '127.0.0.1/32',
    TRUSTED_AUTH_ADMINS: ADA,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

/** One image made through the console, followed until its result is kept in the team's store. */
async function keptImage(page: Page, prompt: string): Promise<string> {
  const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 1 } });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/__console/tasks/${id}`)).json()) as {
            data?: { task?: { copies?: { kept?: { image?: string } } } };
          }
        ).data?.task?.copies?.kept?.image,
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return id;
}

test('a creator shares a board; a browser with no account sees exactly it and nothing else; revoked, it is gone', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const headers = (name: string) => ({ baseURL: server.url, extraHTTPHeaders: { [USER_HEADER]: name } });
  const adaContext = await browser.newContext(headers(ADA));
  const cyContext = await browser.newContext(headers(CY));
  const cy = await cyContext.newPage();
  // Cy is seen once, then made a creator by the admin.
  expect((await cy.request.get('/__console/config')).ok()).toBe(true);
  const people = (await (await adaContext.request.get('/__console/people')).json()) as {
    people: { id: string; name: string }[];
  };
  const cyId = people.people.find((person) => person.name === CY)!.id;
  expect(
    (await adaContext.request.post(`/__console/people/${cyId}/role`, { data: { role: 'creator' } })).ok(),
  ).toBe(true);

  const shared = `Harbour at dawn ${run}`;
  const notShared = `Unreleased product ${run}`;
  const sharedId = await keptImage(cy, shared);
  await keptImage(cy, notShared);
  const board = await cy.request.post('/__console/boards', {
    data: { name: `Review ${run}`, ids: [sharedId] },
  });
  expect(board.status()).toBe(201);
  const boardId = ((await board.json()) as { data: { board: { id: string } } }).data.board.id;

  await cy.goto(`/boards/${boardId}`);
  await cy.getByRole('button', { name: 'Share' }).click();
  const dialog = cy.getByRole('dialog', { name: `Share “Review ${run}”` });
  await dialog.getByLabel('Link lives (days)').fill('91');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByLabel('Link lives (days)')).toHaveAccessibleDescription(/at most 90 days/);
  await dialog.getByLabel('Link lives (days)').fill('90');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByLabel('Share link').inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);

  // A browser with no session and no header: the proxy would let it through, the console asks who it is.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const opened = await visitor.goto(url);
  expect(opened?.status()).toBe(200);
  expect(opened?.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(visitor.getByRole('heading', { name: `Review ${run}`, level: 1 })).toBeVisible();
  const results = visitor.getByRole('list', { name: 'Shared results' }).getByRole('listitem');
  await expect(results).toHaveCount(1);
  await expect(results.getByRole('img', { name: shared })).toBeVisible();
  await expect(visitor.getByText(notShared)).toHaveCount(0);
  for (const colorScheme of ['light', 'dark'] as const) {
    await visitor.emulateMedia({ colorScheme });
    await expectNoAxeViolations(visitor, { message: `the share page, ${colorScheme}` });
  }
  // Large, with the keyboard.
  await results.getByRole('link', { name: `Open ${shared} large` }).click();
  const large = visitor.getByRole('dialog', { name: 'Large view' });
  await expect(large.getByRole('img', { name: shared })).toBeVisible();
  await visitor.keyboard.press('Escape');
  await expect(large).toBeHidden();
  // Nothing else answers it.
  expect((await visitor.request.get(`${server.url}/__console/tasks`)).status()).toBe(401);
  expect((await visitor.request.get(`${server.url}/__console/boards/${boardId}`)).status()).toBe(401);
  await visitor.goto(`${server.url}/tasks`);
  await expect(visitor).toHaveURL(/\/login\?next=%2Ftasks$/);

  // Revoked by its creator: the same address is gone.
  await dialog.getByRole('button', { name: 'Revoke…' }).click();
  await dialog.getByRole('button', { name: 'Revoke link' }).click();
  await expect(dialog.getByRole('region', { name: 'Live links' })).toHaveCount(0);
  const gone = await visitor.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { name: 'This link is not available' })).toBeVisible();

  // A request is shared from its own page the same way: its results, and still not the other one.
  await cy.goto(`/requests/req-${sharedId}`);
  await cy.getByRole('button', { name: 'Share' }).click();
  const requestDialog = cy.getByRole('dialog', { name: /^Share “/ });
  await requestDialog.getByRole('button', { name: 'Create link' }).click();
  const requestUrl = await requestDialog.getByLabel('Share link').inputValue();
  expect(requestUrl).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  expect(requestUrl).not.toBe(url);
  expect((await visitor.goto(requestUrl))?.status()).toBe(200);
  await expect(results).toHaveCount(1);
  await expect(results.getByRole('img', { name: shared })).toBeVisible();
  await expect(visitor.getByText(notShared)).toHaveCount(0);
  await Promise.all([adaContext.close(), cyContext.close(), visitorContext.close()]);
});
