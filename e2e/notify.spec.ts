// Told when one's requests finish: with notifications on, a tab on any screen (here
// Insights, not Tasks) hears from the server's live stream that a request of the person's ended, and
// shows one notification for the whole request, whoever moved its tasks on (here a script's status
// checks). The browser's Notification is a recording stand-in, and the tab pretends to be in the
// background (a visible, focused tab shows the change itself).
import { expect, test } from './fixtures';

declare global {
  interface Window {
    __notices: { title: string; body?: string; tag?: string }[];
  }
}

test('a tab on another screen shows one notification when the last task of my request ends', async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.__notices = [];
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body?: string; tag?: string } = {}) {
        window.__notices.push({ title, ...options });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { configurable: true, value: RecordingNotification });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.hasFocus = () => false;
    localStorage.setItem('media-console:notify-finished', '1');
  });
  const stream = page.waitForResponse((response) => response.url().endsWith('/__console/tasks/events'));
  await page.goto('/insights');
  await stream;

  const prompt = `Notify me ${Date.now().toString(36)}`;
  const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 2 } });
  expect(created.ok()).toBe(true);
  const ids = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
  // A script follows its tasks; each answer is recorded and pushed to every stream.
  const status = async (id: string) =>
    ((await (await page.request.get(`/v1/image_generate/${id}`)).json()) as { data?: { status?: string } })
      .data?.status;
  await expect.poll(() => status(ids[0]!), { timeout: 20_000 }).toBe('SUCCEEDED');
  await expect.poll(() => status(ids[1]!), { timeout: 20_000 }).toBe('SUCCEEDED');

  const mine = () => page.evaluate((body) => window.__notices.filter((n) => n.body === body), prompt);
  await expect
    .poll(mine)
    .toEqual([{ title: 'Your 2 images are ready', body: prompt, tag: `request:req-${ids[0]}` }]);
});
