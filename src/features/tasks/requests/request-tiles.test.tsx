// @vitest-environment jsdom
// A form's request tiles (./request-tiles.tsx): a failed tile offers "Try again", which sends the
// same parameters for one task, against the real Node side.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { testNodeApp } from '../../../../server/testing/test-node-app';
import { applyTaskUpdate, historySnapshot, recordCreatedTasks } from '@/features/tasks/history/history';
import { emptyHistory } from '@/testing/history';
import { RequestTiles } from './request-tiles';

const server = testNodeApp('request-tiles');
let sent: unknown[] = [];

beforeEach(async () => {
  await server.open();
  await emptyHistory();
  sent = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    if (init?.method === 'POST' && String(input).startsWith('/v1/')) sent.push(JSON.parse(String(init.body)));
    return server.request(input, init);
  });
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

const PARAMS = { prompt: 'A paper boat', generate_count: 2, image_ratio: '1:1' };

async function tilesOfTwo() {
  await recordCreatedTasks('image_generate', PARAMS, [{ task_id: 'tile-ok' }, { task_id: 'tile-failed' }]);
  await applyTaskUpdate('tile-ok', 'image_generate', { status: 'PROCESSING' }, 'poll');
  await applyTaskUpdate(
    'tile-failed',
    'image_generate',
    { status: 'FAILED', error_message: 'The model timed out' },
    'poll',
  );
  render(
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <RequestTiles
        tasks={[
          { id: 'tile-ok', label: 'Image 1' },
          { id: 'tile-failed', label: 'Image 2' },
        ]}
      />
    </Router>,
  );
  const tiles = within(await screen.findByRole('list', { name: 'Results' })).getAllByRole('listitem');
  return tiles;
}

describe('a failed tile on the form', () => {
  it('tries again with the same parameters, for one task, and links the new one', async () => {
    const user = userEvent.setup();
    const [running, failed] = await tilesOfTwo();
    await within(failed!).findByText('The model timed out');
    // Only the failed one offers it.
    expect(within(running!).queryByRole('button', { name: /^Try .* again$/ })).toBeNull();
    await user.click(await within(failed!).findByRole('button', { name: 'Try Image 2 again' }));
    const made = await within(failed!).findByRole('status');
    await waitFor(() => expect(made).toHaveTextContent(/^Sent again as /));
    expect(sent).toEqual([{ ...PARAMS, generate_count: 1 }]);
    const id = within(made).getByRole('link').textContent!;
    expect(historySnapshot().tasks.find((task) => task.id === id)).toMatchObject({ rerunOf: 'tile-failed' });
  });

  it('says why when the service refuses it, beside the button', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? Response.json({ code: 100001, msg: 'prompt is required', data: null }, { status: 400 })
        : server.request(input, init),
    );
    const [, failed] = await tilesOfTwo();
    await user.click(await within(failed!).findByRole('button', { name: 'Try Image 2 again' }));
    expect(await within(failed!).findByRole('status')).toHaveTextContent(/prompt is required/);
    expect(within(failed!).getByRole('button', { name: 'Try Image 2 again' })).toBeEnabled();
  });
});
