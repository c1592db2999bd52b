// Stars, boards, compare and "More like this", as a team uses them: two console
// instances on one PostgreSQL database (a throwaway cluster) behind one service (a standalone
// emulator), people signed in by an authenticating proxy's header. A creator stars three results and
// puts five results of three requests on a new board (and one more request lands there from the
// form); a teammate in another browser on the other instance finds the board in the navigation,
// sees the rename live, compares two side by side and makes more like one; the board survives a
// restart of both; a viewer sees it and cannot change it.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { E2E_PORTS, E2E_TOKEN } from '../playwright.config';
import { testPostgres, type TestPostgres } from '../server/testing/postgres';
import { expectNoAxeViolations } from './axe';
import { startProdServer, type ProdServer } from './prod-server';
import { startStandaloneEmulator, type StartedServer } from './standalone-servers';

// Servers on fixed ports, started once for the file: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

const run = Date.now().toString(36);
const ADA = `Ada.${run}`; // admin (TRUSTED_AUTH_ADMINS): the teammate on the other instance
const CY = `Cy.${run}`; // made a creator by Ada
const VI = `Vi.${run}`; // a viewer (everyone else starts as one)
const USER_HEADER = 'x-forwarded-user';
const BOARD = `Keepers ${run}`;

let postgres: TestPostgres;
let databaseUrl: string;
let service: StartedServer;
let servers: ProdServer[] = [];
const dataDir = `test-results/e2e/boards-${run}`;

async function startBoth(): Promise<[ProdServer, ProdServer]> {
  // One DATA_DIR for both: their kept result files are one store, as S3 would be for a real team.
  const env = {
    DATABASE_URL: databaseUrl,
    API_BASE_URL: service.url,
    API_TOKEN: E2E_TOKEN,
    DATA_DIR: dataDir,
    TRUSTED_AUTH_HEADER: USER_HEADER,
    TRUSTED_PROXIES: '127.0.0.1/32',
    TRUSTED_AUTH_ADMINS: ADA,
  };
  servers = await Promise.all([startProdServer(4064, env), startProdServer(4065, env)]);
  return servers as [ProdServer, ProdServer];
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  service = await startStandaloneEmulator(E2E_PORTS.boardsEmulator);
  postgres = await testPostgres();
  databaseUrl = postgres.createDatabase('boards');
});
test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await service?.stop();
  postgres?.stop();
});

async function personPage(browser: Browser, base: string, name: string, phone = false): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    extraHTTPHeaders: { [USER_HEADER]: name },
    ...(phone && { viewport: { width: 390, height: 844 } }),
  });
  return context.newPage();
}

/** A request of `count` images made through the console, followed until each is SUCCEEDED: its task ids. */
async function madeImages(page: Page, prompt: string, count: number): Promise<string[]> {
  const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: count } });
  expect(created.ok()).toBe(true);
  const ids = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
  for (const id of ids)
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/v1/image_generate/${id}`)).json()) as {
              data?: { status?: string };
            }
          ).data?.status,
      )
      .toBe('SUCCEEDED');
  return ids;
}

const card = (page: Page, id: string) => page.getByRole('article').filter({ hasText: id });

test('a creator stars and makes a board; a teammate on another instance opens it, compares, makes more; a viewer only looks', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  let [a, b] = await startBoth();

  // Ada (admin) makes Cy a creator; Vi, never promoted, stays a viewer.
  const ada = await personPage(browser, b.url, ADA);
  const cy = await personPage(browser, a.url, CY);
  const vi = await personPage(browser, b.url, VI, true);
  await cy.request.get('/__console/config');
  await vi.request.get('/__console/config');
  const people = (await (await ada.request.get('/__console/people')).json()) as {
    people: { id: string; name: string }[];
  };
  const cyId = people.people.find((person) => person.name === CY)!.id;
  expect((await ada.request.post(`/__console/people/${cyId}/role`, { data: { role: 'creator' } })).ok()).toBe(
    true,
  );

  // Three requests by Cy: two images, two images, one image.
  const fox = await madeImages(cy, `Red fox ${run}`, 2);
  const whale = await madeImages(cy, `Blue whale ${run}`, 2);
  const owl = await madeImages(cy, `Snow owl ${run}`, 1);

  // Cy stars three results: two from their cards, one from the lightbox with `s`.
  await cy.goto(`/tasks?by=task&q=${run}`);
  for (const id of [fox[0]!, whale[0]!])
    await card(cy, id)
      .getByRole('button', { name: /^Star / })
      .click();
  await card(cy, owl[0]!)
    .getByRole('button', { name: /^View larger/ })
    .click();
  const lightbox = cy.getByRole('dialog');
  await expect(lightbox.getByRole('button', { name: '☆ Star' })).toBeVisible();
  await cy.keyboard.press('s');
  await expect(lightbox.getByRole('button', { name: '★ Starred' })).toHaveAttribute('aria-pressed', 'true');
  await cy.keyboard.press('Escape');
  for (const id of [fox[0]!, whale[0]!, owl[0]!])
    await expect(card(cy, id).getByRole('button', { name: /^Star / })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  // The Starred view: those three, and only those.
  await cy.getByRole('checkbox', { name: 'Starred' }).check();
  await expect(cy).toHaveURL(/starred=only/);
  await expect(cy.getByRole('article')).toHaveCount(3);
  await cy.getByRole('checkbox', { name: 'Starred' }).uncheck();

  // Five results of the three requests, selected, go on a new board.
  const five = [fox[0]!, fox[1]!, whale[0]!, whale[1]!, owl[0]!];
  // (A card's box sits beside its article; the two images of one request share a title.)
  for (const [title, count] of [
    [`Red fox ${run}`, 2],
    [`Blue whale ${run}`, 2],
    [`Snow owl ${run}`, 1],
  ] as const)
    for (let n = 0; n < count; n++)
      await cy
        .getByRole('checkbox', { name: `Select ${title}` })
        .nth(n)
        .check();
  const bar = cy.getByRole('region', { name: 'Selected tasks' });
  await expect(bar).toContainText('5 tasks selected');
  // Five is one too many to compare: the button is off and says why.
  await expect(bar.getByRole('button', { name: 'Compare' })).toBeDisabled();
  await expect(bar.getByText('Choose 2 to 4 results to compare (5 selected)')).toBeVisible();
  await bar.getByRole('button', { name: 'Add to board' }).click();
  const picker = cy.getByRole('dialog', { name: 'Add to a board' });
  await picker.getByRole('textbox', { name: 'New board name' }).fill(BOARD);
  await picker.getByRole('button', { name: 'Create and add' }).click();
  await expect(picker.getByRole('status')).toContainText(`Added to ${BOARD}`);
  await expectNoAxeViolations(cy, { include: 'dialog' });
  await picker.getByRole('button', { name: 'Close' }).click();

  // Ada, in another browser on instance B, finds it in the navigation.
  await ada.goto('/');
  await ada.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Boards' }).click();
  await ada.getByRole('searchbox', { name: 'Search boards' }).fill(`keepers ${run}`);
  await ada.getByRole('link', { name: BOARD }).click();
  await expect(ada.getByRole('heading', { level: 1, name: BOARD })).toBeVisible();
  const results = ada.getByRole('list', { name: 'Results on this board' }).getByRole('article');
  await expect(results).toHaveCount(5);
  await expectNoAxeViolations(ada);

  // A change Cy makes on A shows on Ada's page on B without a reload: the board renamed.
  const boardId = decodeURIComponent(new URL(ada.url()).pathname.split('/').pop()!);
  expect(
    (await cy.request.patch(`/__console/boards/${boardId}`, { data: { name: `${BOARD} (week)` } })).ok(),
  ).toBe(true);
  await expect(ada.getByRole('heading', { level: 1, name: `${BOARD} (week)` })).toBeVisible();

  // Compare two side by side: one zoom for both.
  await results
    .nth(0)
    .getByRole('checkbox', { name: /^Select / })
    .check();
  await results
    .nth(1)
    .getByRole('checkbox', { name: /^Select / })
    .check();
  await ada.getByRole('link', { name: 'Compare 2' }).click();
  await expect(ada.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  const pictures = ada.getByRole('figure');
  await expect(pictures).toHaveCount(2);
  await expectNoAxeViolations(ada);
  await ada.getByRole('slider', { name: 'Zoom' }).fill('200');
  for (const index of [0, 1])
    await expect(pictures.nth(index).getByRole('img')).toHaveAttribute('style', /width: 200%/);
  await ada.goBack();

  // More like one of them: the same request again, linked to the first.
  await results
    .first()
    .getByRole('button', { name: /^More like this/ })
    .click();
  // It asks first, with what it will spend.
  const question = ada.getByRole('group', { name: 'More like this' });
  await expect(question).toContainText('More like this sends the same request again and spends');
  await question.getByRole('button', { name: /^Make \d+ more$/ }).click();
  await expect(ada).toHaveURL(/\/requests\/req-/);
  await expect(ada.getByText('More like an earlier request, with the same parameters.')).toBeVisible();
  await ada.getByRole('link', { name: 'an earlier request' }).click();
  await expect(ada.getByRole('heading', { name: 'More like this' })).toBeVisible();

  // The board chosen on Create image before generating: the new results land on it.
  await cy.goto('/');
  await cy.getByRole('button', { name: 'Save to a board…' }).click();
  await cy.getByRole('combobox', { name: 'Board' }).selectOption({ label: `${BOARD} (week)` });
  await cy.getByRole('button', { name: 'Done' }).click();
  await expect(cy.getByRole('button', { name: `Saves to board: ${BOARD} (week)` })).toBeVisible();
  await cy.getByRole('textbox', { name: 'Prompt' }).fill(`Landed on the board ${run}`);
  await cy.getByRole('button', { name: 'Generate images' }).click();
  await expect(cy.getByRole('region', { name: /task created|tasks created/ })).toBeVisible();
  await ada.goto(`/boards/${encodeURIComponent(boardId)}`);
  await expect.poll(() => results.count()).toBeGreaterThan(5);

  // Both instances restart: the board and its results are all still there.
  const before = await results.count();
  await Promise.all([a.stop(), b.stop()]);
  [a, b] = await startBoth();
  await vi.goto(`/boards/${encodeURIComponent(boardId)}`);
  await expect(vi.getByRole('heading', { level: 1, name: `${BOARD} (week)` })).toBeVisible();
  await expect(vi.getByRole('list', { name: 'Results on this board' }).getByRole('article')).toHaveCount(
    before,
  );

  // The viewer sees it, downloads it, and cannot change it: no controls, and the server says 403.
  await expect(vi.getByRole('link', { name: 'Download all' })).toBeVisible();
  await expect(vi.getByText('You can view and download this board; creators change it.')).toBeVisible();
  for (const name of ['Edit', 'Delete…']) await expect(vi.getByRole('button', { name })).toHaveCount(0);
  await expect(vi.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(vi.getByRole('button', { name: /^More like this/ })).toHaveCount(0);
  const refused = await vi.request.post(`/__console/boards/${boardId}/items/remove`, {
    data: { ids: [five[0]] },
  });
  expect(refused.status()).toBe(403);
  await vi.goto('/boards');
  await expect(vi.getByRole('link', { name: `${BOARD} (week)` })).toBeVisible();
  await expect(vi.getByRole('button', { name: 'New board' })).toHaveCount(0);
  // At a phone's width, as a viewer: the list and the board page pass axe too.
  await expectNoAxeViolations(vi);
  await vi.getByRole('link', { name: `${BOARD} (week)` }).click();
  await expect(vi.getByRole('heading', { level: 1, name: `${BOARD} (week)` })).toBeVisible();
  await expectNoAxeViolations(vi);
});
