// Personal API tokens end to end: a person signs in, makes a token on the People screen,
// and a script with nothing but that token (no cookie) creates an image, follows its status and
// downloads it; the record names the person; revoking it on the screen refuses the script's next call.
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';

// A server of its own on a fixed port, started once for the file: its tests stay in one worker.
test.describe.configure({ mode: 'default' });

const PASSWORD = 'correct horse battery staple';
let server: ProdServer;

test.beforeAll(async () => {
  server = await startProdServer(4066, { APP_PASSWORD: PASSWORD });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a token made on the People screen drives create, status and download with its header alone; revoked, it is refused', async ({
  page,
  playwright,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${server.url}/people`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();

  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByLabel('Token name').fill('overnight images');
  await section.getByLabel('Expires in (days)').fill('366');
  await section.getByRole('button', { name: 'Create token' }).click();
  await expect(section.getByLabel('Expires in (days)')).toHaveAccessibleDescription(/at most 365 days/);
  await expectNoAxeViolations(page, { include: '#api-tokens', message: 'with a field in error' });
  await section.getByLabel('Expires in (days)').fill('365');
  await section.getByRole('button', { name: 'Create token' }).click();
  const token = (await section.getByLabel('New API token').textContent())!;
  expect(token).toMatch(/^mct_[A-Za-z0-9_-]{43}$/);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, {
      include: '#api-tokens',
      message: `${colorScheme}, the new token shown`,
    });
  }

  // The script: a request context with no cookie, only the header.
  const script = await playwright.request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const created = await script.post('/v1/image_generate', {
    data: { prompt: 'Overnight batch: calm ocean at sunset', generate_count: 1 },
  });
  expect(created.status(), await created.text()).toBe(200);
  const taskId = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  await expect
    .poll(
      async () =>
        ((await (await script.get(`/v1/image_generate/${taskId}`)).json()) as { data?: { status?: string } })
          .data?.status,
      { timeout: 30_000 },
    )
    .toBe('SUCCEEDED');
  const download = await script.get(`/__console/tasks/${taskId}/download/result`);
  expect(download.status()).toBe(200);
  expect((await download.body()).byteLength).toBeGreaterThan(100);
  const record = (await (await script.get(`/__console/tasks/${taskId}`)).json()) as {
    data: { task: { creator: string } };
  };
  expect(record.data.task.creator).toBe('Team (shared password)');

  // Without the token the same script is nobody.
  const nobody = await playwright.request.newContext({ baseURL: server.url });
  expect((await nobody.get(`/__console/tasks/${taskId}`)).status()).toBe(401);

  // Revoked on the screen: the next call is refused.
  await page.reload();
  const list = page.getByRole('list', { name: "Everyone's API tokens" });
  const item = list.getByRole('listitem').filter({ hasText: 'overnight images' });
  await expect(item.getByText('Active', { exact: true })).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await item.getByRole('button', { name: 'Revoke overnight images' }).click();
  await expect(item.getByText('Revoked', { exact: true })).toBeVisible();
  const refused = await script.get(`/v1/image_generate/${taskId}`);
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { msg: string }).msg).toContain('not valid');

  // The audit log tells the token's life.
  const audit = page.getByRole('region', { name: 'Audit log' });
  for (const [action, label] of [
    ['token.create', 'API token made'],
    ['token.use', 'API token used'],
    ['token.revoke', 'API token revoked'],
  ] as const) {
    await audit.getByLabel('What').selectOption(action);
    await expect(audit.getByRole('listitem')).toHaveCount(1);
    await expect(audit.getByRole('listitem')).toContainText(`Team (shared password)${label}overnight images`);
  }
  await script.dispose();
  await nobody.dispose();
});
