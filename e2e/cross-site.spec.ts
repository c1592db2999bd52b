// One cross-site rule whichever backend answers. A page on another site, in real Chromium,
// sends what a browser lets any page send without asking (no CORS preflight): a text/plain body that
// reads as JSON, and a multipart upload. The worker's app runs the built-in emulator and, on
// loopback, needs no sign-in, so no cookie stands in the way: only the rule does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

// The attacker's page, served for real on loopback (so Chromium's Private Network Access lets it reach
// 127.0.0.1), opened as http://localhost:PORT: another site than http://127.0.0.1 all the same.
let attacker: Server;
let attackerOrigin = '';
test.beforeAll(async () => {
  attacker = createServer((_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Win a prize</title><p>Hello</p>'),
  );
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

test("another site's page cannot hide tasks, create or upload through a visitor's browser", async ({
  page,
  request,
  baseURL,
}) => {
  const prompt = `cross-site target ${Date.now()}`;
  const created = await request.post('/v1/image_generate', { data: { prompt } });
  expect(created.ok()).toBe(true);
  const [taskId] = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;

  // A form the other site submits in the visitor's tab: the tab shows what the console answered.
  const submit = async (action: string, enctype: string, fields: Record<string, string>, file?: string) => {
    await page.goto(`${attackerOrigin}/`);
    await page.evaluate(
      ({ action, enctype, fields }) => {
        const form = Object.assign(document.createElement('form'), { method: 'post', action, enctype });
        for (const [name, value] of Object.entries(fields))
          form.append(Object.assign(document.createElement('input'), { name, value }));
        form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'file' }));
        document.body.append(form);
      },
      { action: `${baseURL}${action}`, enctype, fields },
    );
    if (file)
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'prize.mp4', mimeType: 'video/mp4', buffer: Buffer.from(file) });
    const answer = page.waitForResponse((response) => response.url() === `${baseURL}${action}`);
    await page.evaluate(() => document.querySelector('form')!.submit());
    const response = await answer;
    await page.waitForURL(`${baseURL}${action}`);
    expect((await response.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
    return response.status();
  };

  // A text/plain form whose body reads as JSON: `{"ids":["…"],"hidden":true,"x":"="}`.
  const hide = await submit('/__console/tasks/hidden', 'text/plain', {
    [`{"ids":[${JSON.stringify(taskId)}],"hidden":true,"x":"`]: '"}',
  });
  expect(hide).toBe(403);
  // The same for a creation on the built-in emulator, and a file upload (an MP4 as the emulator sniffs one).
  const create = await submit('/v1/image_generate', 'text/plain', {
    '{"prompt":"spent by another site","x":"': '"}',
  });
  expect(create).toBe(403);
  const upload = await submit(
    '/v1/figure-resource/upload/file',
    'multipart/form-data',
    {},
    'aaaaftypisom and more',
  );
  expect(upload).toBe(403);

  // Nothing changed: the task is not hidden, and no task was created for the other site.
  const hidden = await request.get('/__console/tasks/hidden');
  expect(((await hidden.json()) as { data: { ids: string[] } }).data.ids).not.toContain(taskId);
  const spent = await request.get(`/__console/tasks?q=${encodeURIComponent('spent by another site')}`);
  expect(((await spent.json()) as { data: { items: unknown[] } }).data.items).toEqual([]);

  // The same request from the console's own page is taken (the rule refuses the site, not the request).
  await page.goto('/tasks');
  const own = await page.evaluate(
    (taskId) =>
      fetch('/__console/tasks/hidden', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [taskId], hidden: false }),
      }).then((response) => response.status),
    taskId,
  );
  expect(own).toBe(200);
});
