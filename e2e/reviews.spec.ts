// Comments and decisions on results, as a team uses them: people signed in by an authenticating
// proxy's header (a creator, a viewer). The creator has a board open; a viewer, on a phone, asks for
// changes on its result with a comment; the creator's board shows it without a reload, and the
// Tasks screen's "Changes requested" filter lists that result. Across instances on PostgreSQL and
// every bound and role: server/reviews/*.test.ts; the panel itself: review-panel.test.tsx.
import type { Browser, Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';

// A server of this file's own on a fixed port: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

const run = Date.now().toString(36);
const ADA = `Ada.${run}`; // admin (TRUSTED_AUTH_ADMINS): makes Cy a creator
const CY = `Cy.${run}`;
const VI = `Vi.${run}`; // never promoted: a viewer
const USER_HEADER = 'x-forwarded-user';
const PROMPT = `Harbour at dawn ${run}`;

let server: ProdServer;
test.beforeAll(async () => {
  server = await startProdServer(4189, {
    TRUSTED_AUTH_HEADER: USER_HEADER,
    TRUSTED_PROXIES: '127.0.0.1/32',
    TRUSTED_AUTH_ADMINS: ADA,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function personPage(browser: Browser, name: string, phone = false): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { [USER_HEADER]: name },
    ...(phone && { viewport: { width: 390, height: 844 } }),
  });
  return context.newPage();
}

test('a viewer\'s "Changes requested" shows on the creator\'s open board at once, and Tasks filters it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ada = await personPage(browser, ADA);
  const cy = await personPage(browser, CY);
  const vi = await personPage(browser, VI, true);
  await cy.request.get('/__console/config');
  const people = (await (await ada.request.get('/__console/people')).json()) as {
    people: { id: string; name: string }[];
  };
  const cyId = people.people.find((person) => person.name === CY)!.id;
  expect((await ada.request.post(`/__console/people/${cyId}/role`, { data: { role: 'creator' } })).ok()).toBe(
    true,
  );

  // Cy makes an image and puts it on a new board.
  const created = await cy.request.post('/v1/image_generate', {
    data: { prompt: PROMPT, generate_count: 1 },
  });
  expect(created.ok()).toBe(true);
  const [taskId] = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
  await expect
    .poll(
      async () =>
        (
          (await (await cy.request.get(`/__console/tasks/${taskId}`)).json()) as {
            data?: { task: { status: string } };
          }
        ).data?.task.status,
    )
    .toBe('SUCCEEDED');
  const board = await cy.request.post('/__console/boards', { data: { name: `Picks ${run}`, ids: [taskId] } });
  const boardId = ((await board.json()) as { data: { board: { id: string } } }).data.board.id;

  // Cy's board page is open before anyone says anything.
  await cy.goto(`/boards/${boardId}`);
  const item = cy.getByRole('article').filter({ hasText: PROMPT });
  await expect(item).toBeVisible();
  await expect(item.getByText('Changes requested')).toHaveCount(0);

  // Vi, a viewer, on a phone: Review → Changes requested, with a comment.
  await vi.goto(`/boards/${boardId}`);
  await vi.getByRole('button', { name: `Review ${PROMPT}` }).click();
  const dialog = vi.getByRole('dialog', { name: 'Review' });
  await expect(dialog.getByText('Nobody has decided yet.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Changes requested' }).check();
  await dialog
    .getByRole('textbox', { name: 'Comment' })
    .fill('The horizon leans left; straighten it, please.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  const decisions = dialog.getByRole('region', { name: 'Decisions' });
  await expect(decisions.getByRole('listitem')).toHaveText(
    new RegExp(`^${VI.replace('.', '\\.')}Changes requested`),
  );
  await expect(dialog.getByRole('region', { name: 'Comments' })).toContainText('straighten it, please');
  await expectNoAxeViolations(vi, { include: 'dialog' });

  // Cy's page, never reloaded, shows it on the board's card.
  await expect(item.getByText('Changes requested')).toBeVisible();
  await expect(item.getByText('1 comment')).toBeVisible();

  // Tasks → Filters → Review: Changes requested lists that result, and only it.
  await cy.goto('/tasks?by=task');
  await cy.getByRole('button', { name: 'Filters' }).click();
  await cy.getByRole('combobox', { name: 'Review' }).selectOption('Changes requested');
  await expect(cy).toHaveURL(/review=changes_requested/);
  await expect(cy.getByRole('article')).toHaveCount(1);
  await expect(cy.getByRole('article').filter({ hasText: taskId! })).toContainText('Changes requested');
});
