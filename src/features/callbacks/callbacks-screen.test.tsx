// @vitest-environment jsdom
// The screen against the real inbox (server/callbacks) in a temporary DATA_DIR, fetch routed to it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getTask } from '@/features/tasks/history/history';
import { createCallbackInbox, type CallbackInbox } from '../../../server/callbacks/inbox';
import { CallbackStore } from '../../../server/callbacks/store';
import { resetTestDatabase, testDatabase } from '../../../server/testing/database';
import { CallbacksScreen } from './callbacks-screen';
import { CALLBACK_EXAMPLES } from './parse-callback';
import { emptyHistory } from '@/testing/history';

const SECRET = 'screen-test-secret-0123456789';
let dataDir: string;
let inbox: CallbackInbox;
let store: CallbackStore;

function renderScreen() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CallbacksScreen />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await emptyHistory();
  await resetTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'screen-inbox-'));
  store = new CallbackStore(testDatabase());
  inbox = createCallbackInbox({ dataDir, secret: SECRET, store });
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    input === '/__console/config'
      ? Promise.resolve(
          Response.json({
            backend: 'emulator',
            apiHost: null,
            tokenConfigured: true,
            callbackAddress: 'http://localhost/callbacks/…',
            callbackUrlReachable: true,
          }),
        )
      : inbox.app.request(input, init),
  );
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await inbox.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (body: unknown) =>
  inbox.app.request(inbox.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('CallbacksScreen', () => {
  it('lists received callbacks newest first with time, type, task id, status and raw JSON', async () => {
    await post(CALLBACK_EXAMPLES.video_translate);
    await post(CALLBACK_EXAMPLES.image_generate);
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Callbacks, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('heading')).toHaveTextContent('Image generation');
    expect(within(items[1]!).getByRole('heading')).toHaveTextContent('Video translation');
    expect(within(items[1]!).getByRole('link', { name: 'vt-example-1' })).toHaveAttribute(
      'href',
      '/tasks/vt-example-1',
    );
    expect(within(items[1]!).getByText('SUCCEEDED')).toBeInTheDocument();
    expect(items[1]!.querySelector('time')).toHaveAttribute(
      'dateTime',
      (await inbox.store.since(0))[0]!.receivedAt,
    );
    expect(items[1]!.querySelector('pre')?.textContent).toContain('"caption_url"');
    expect(screen.getByText('2 callbacks, newest first')).toBeInTheDocument();
    expect(screen.getByText('http://localhost/callbacks/…')).toBeInTheDocument();
    // The secret never reaches the page: the log and the stream are read without it.
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('finds the callbacks of one task by part of its id', async () => {
    const user = userEvent.setup();
    await post(CALLBACK_EXAMPLES.video_translate);
    await post(CALLBACK_EXAMPLES.image_generate);
    renderScreen();
    await screen.findByText('2 callbacks, newest first');
    await user.type(screen.getByRole('searchbox', { name: 'Find a task id' }), 'i2is');
    await screen.findByText('1 match');
    const list = screen.getByRole('list', { name: 'Callbacks, newest first' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByRole('link', { name: 'i2is-example-1' })).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Find a task id' }));
    await user.type(screen.getByRole('searchbox', { name: 'Find a task id' }), 'nothing-like-this');
    expect(await screen.findByText(/No stored callback has a task id containing/)).toBeInTheDocument();
  });

  it('shows what is wrong with a pasted body and stores nothing', async () => {
    const user = userEvent.setup();
    renderScreen();
    const box = await screen.findByLabelText('Callback body (JSON)');
    await user.click(box);
    await user.paste('{"code": 0, "task_type": "video_translate", "data": {"task_id": "vt-9", "status": 3}}');
    await user.click(screen.getByRole('button', { name: 'Store and check' }));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/data\.status/);
    expect(await inbox.store.since(0)).toHaveLength(0);
  });

  it('stores a pasted callback in the inbox, and takes no task from it (a callback is a hint)', async () => {
    const user = userEvent.setup();
    renderScreen();
    await screen.findByLabelText('Callback body (JSON)');
    await user.click(screen.getByRole('button', { name: 'Image to video' }));
    await user.click(screen.getByRole('button', { name: 'Store and check' }));

    expect(await screen.findByText(/Stored as #1\. Task/)).toBeInTheDocument();
    expect((await inbox.store.since(0))[0]!.body).toEqual(CALLBACK_EXAMPLES.image_to_video);
    expect(await getTask('i2v-example-1')).toBeUndefined();
  });
});
