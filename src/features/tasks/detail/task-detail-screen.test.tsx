// @vitest-environment jsdom
// The detail page against the real Node side: the team's record of a task (parameters, creator,
// timeline), and the fallback when the record has no entry.
import { asPerson, person } from '../../../../server/testing/identity';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { ConsoleInfo } from '@/api/console-info';
import { queryClient } from '@/api/query/query-client';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { FakeEventSource } from '@/testing/fake-event-source';
import { testNodeApp } from '../../../../server/testing/test-node-app';
import { applyTaskUpdate, getTask, historySnapshot, peekTask } from '@/features/tasks/history/history';
import { TaskDetailScreen } from './task-detail-screen';
import { emptyHistory } from '@/testing/history';

const server = testNodeApp('task-detail');
let consoleInfo: ConsoleInfo;

beforeEach(async () => {
  await server.open();
  await emptyHistory();
  queryClient.clear();
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => server.request(input, init));
  consoleInfo = testConsoleInfo();
});
afterEach(async () => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

/** The console says this person is signed in (what /__console/config answers for them). */
function signedInAs(name: string, role: 'viewer' | 'creator' | 'admin' = 'creator') {
  const { userId, source } = person(name, role);
  consoleInfo = testConsoleInfo({ user: { id: userId, name, role, source } });
}

async function createdBy(name: string, count = 1): Promise<string> {
  const created = await server.request(
    `/v1/image_generate`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A paper boat', generate_count: count }),
    },
    asPerson(name),
  );
  const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  await server.request(`/v1/image_generate/${id}`);
  return id;
}

function renderDetail(id: string) {
  const memory = memoryLocation({ path: `/tasks/${id}`, record: true });
  render(
    withConsoleInfo(
      consoleInfo,
      <Router hook={memory.hook}>
        <TaskDetailScreen taskId={id} />
      </Router>,
    ),
  );
  return memory;
}

describe('task detail: the team’s record', () => {
  it('shows the request parameters, the creator and the timeline to anyone who opens it', async () => {
    const created = await server.request(
      `/v1/image_generate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'A paper boat', generate_count: 1 }),
      },
      asPerson('Ada'),
    );
    const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    await server.request(`/v1/image_generate/${id}`);
    renderDetail(id);

    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    const entries = within(within(timeline).getByRole('list')).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      expect.stringMatching(/^Created · by Ada/),
      expect.stringMatching(/^SUCCEEDED · from status check/),
      expect.stringMatching(/^Finished · SUCCEEDED · took/),
    ]);
    expect(screen.getByText('Created by').nextElementSibling).toHaveTextContent('Ada');
    expect(screen.getByRole('region', { name: 'Request parameters' })).toHaveTextContent('"A paper boat"');
    // A finished task the record holds is not added to this browser's history.
    expect(await getTask(id)).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Remove…' })).toBeNull();
  });

  it('without a record, looks the task up itself, says it is not found and adds it to no history', async () => {
    renderDetail('i2v-nobody-knows');
    expect(await screen.findByText(/team's record has no entry for this task yet/)).toBeVisible();
    expect(await screen.findByText('Task not found')).toBeVisible();
    // A mistyped id is not kept: nothing in this browser's history.
    expect(await getTask('i2v-nobody-knows')).toBeUndefined();
    expect(screen.queryByRole('region', { name: 'Timeline' })).toBeNull();
  });

  it('keeps "Looking up" until the service answers, so nothing lands above the details afterwards', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let asked = false;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).endsWith('/check?kind=image_to_video')) {
        asked = true;
        await held;
      }
      return server.request(input, init);
    });
    renderDetail('i2v-slow-to-answer');
    // The server is asked to ask the service before anything is shown (a task it does not know is never followed).
    await waitFor(() => expect(asked).toBe(true));
    // The answer is held: nothing can have landed yet.
    expect(await getTask('i2v-slow-to-answer')).toBeUndefined();
    expect(screen.getByRole('status')).toHaveTextContent('Looking up the task…');
    expect(screen.queryByRole('region', { name: 'Details' })).toBeNull();
    answer();
    expect(await screen.findByRole('region', { name: 'Details' })).toBeVisible();
    // The service does not know it: shown as not found, recorded nowhere.
    expect(screen.getByText('Task not found')).toBeVisible();
    expect(await getTask('i2v-slow-to-answer')).toBeUndefined();
  });

  it("paints a task this browser looked up once the team's record is in too, so nothing moves after", async () => {
    const created = await server.request(
      `/v1/image_generate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'A paper boat', image_ratio: '3:4' }),
      },
      asPerson('Ada'),
    );
    const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    await server.request(`/v1/image_generate/${id}`);
    signedInAs('Ada');
    // This browser's copy, from an earlier lookup: no request, dated when it was looked up.
    await applyTaskUpdate(id, 'image_generate', { status: 'SUCCEEDED' }, 'lookup');
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let asked = false;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).startsWith(`/__console/tasks/${id}`)) {
        asked = true;
        await held;
      }
      return server.request(input, init);
    });
    renderDetail(id);
    // Both are in: the history the screen reads has loaded this browser's copy (so it could paint),
    // and the record has been asked for, its answer held.
    await waitFor(() => {
      expect(historySnapshot().loaded).toBe(true);
      expect(peekTask(id)).toBeDefined();
      expect(asked).toBe(true);
    });
    // The copy alone would paint without Re-run (it has no request) and "looked up" as its origin.
    expect(screen.getByRole('status')).toHaveTextContent('Looking up the task…');
    expect(screen.queryByRole('button', { name: 'Re-run…' })).toBeNull();
    answer();
    expect(await screen.findByRole('button', { name: 'Re-run…' })).toBeVisible();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Created').nextElementSibling).toHaveTextContent(
      'created through the console',
    );
  });

  it("shows this browser's copy after a moment when the team's record does not answer", async () => {
    await applyTaskUpdate('i2v-record-stalled', 'image_to_video', { status: 'SUCCEEDED' }, 'lookup');
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).startsWith('/__console/tasks/i2v-record-stalled'))
        return new Promise<Response>(() => {});
      return server.request(input, init);
    });
    renderDetail('i2v-record-stalled');
    expect(screen.getByRole('status')).toHaveTextContent('Looking up the task…');
    expect(await screen.findByRole('region', { name: 'Details' }, { timeout: 3_000 })).toBeVisible();
    expect(screen.getByText('SUCCEEDED', { selector: 'dd *, dd' })).toBeVisible();
  });

  it('does not wait for an answer nobody will give: a finished copy over a record without one', async () => {
    const created = await server.request(`/v1/image_generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A paper boat' }),
    });
    const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    // The record never heard an answer (status ''), and this browser's finished copy looks older
    // (the server's clock is ahead): no lookup starts (the task is in the history) and no poller
    // runs (it is finished), so nothing will answer.
    await applyTaskUpdate(id, 'image_generate', { status: 'SUCCEEDED' }, 'lookup');
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const response = await server.request(input, init);
      if (!String(input).startsWith(`/__console/tasks/${id}`)) return response;
      const body = (await response.json()) as { data: { task: { updatedAt: number } } };
      body.data.task.updatedAt += 86_400_000;
      return Response.json(body);
    });
    renderDetail(id);
    expect(await screen.findByRole('region', { name: 'Details' }, { timeout: 1_000 })).toBeVisible();
  });
});

describe('task detail: what the service has not said yet', () => {
  it('shows "—" for a running video\'s duration and size while the service answers 0, then the figures', async () => {
    const { applyStatus } = await import('../../../../server/tasks/recorder');
    const id = 'i2v-still-rendering';
    await server.database.db
      .insertInto('tasks')
      .values({ id, kind: 'image_to_video', source: 'created', created_at: new Date() })
      .execute();
    const answer = (data: Record<string, unknown>) =>
      server.database.db
        .transaction()
        .execute((trx) => applyStatus(trx, 'image_to_video', id, { task_id: id, ...data }, 'poll'));
    await answer({ status: 'PROCESSING', duration: 0, width: 0, height: 0 });
    renderDetail(id);
    const details = await screen.findByRole('region', { name: 'Details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling;
    expect(value('Duration')).toHaveTextContent('—');
    expect(value('Size')).toHaveTextContent('—');
    cleanup();
    await answer({ status: 'SUCCEEDED', duration: 8, width: 720, height: 1280 });
    await queryClient.resetQueries();
    renderDetail(id);
    const done = await screen.findByRole('region', { name: 'Details' });
    await waitFor(() =>
      expect(within(done).getByText('Duration').nextElementSibling).toHaveTextContent('8 seconds'),
    );
    expect(within(done).getByText('Size').nextElementSibling).toHaveTextContent('720 × 1280 pixels');
  });
});

describe('task detail: re-run by role and by whose task it is', () => {
  it('asks before re-running my own task, saying what it will spend; a creator is offered Animate', async () => {
    const id = await createdBy('Ada', 3);
    signedInAs('Ada');
    let created = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).startsWith('/v1/')) created += 1;
      return server.request(input, init, asPerson('Ada'));
    });
    renderDetail(id);
    expect(await screen.findByRole('link', { name: 'Animate' })).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Re-run…' }));
    const confirm = await screen.findByRole('group', { name: 'Re-run this task' });
    const rerun = within(confirm).getByRole('button', { name: 'Re-run' });
    // The button that spends says what: the focus lands on it, and a screen reader reads the cost.
    expect(rerun).toHaveAccessibleDescription(
      /^Re-run sends the same request again and spends 3 tasks and 3 images/,
    );
    await waitFor(() => expect(rerun).toHaveFocus());
    expect(created).toBe(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Re-run this task' })).toBeNull();
    expect(created).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Re-run…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run' }));
    await waitFor(() => expect(created).toBe(1));
  });

  it('offers Edit and re-run: the form of the task’s kind, filled with what it sent', async () => {
    const id = await createdBy('Ada');
    signedInAs('Ada');
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
      server.request(input, init, asPerson('Ada')),
    );
    const memory = renderDetail(id);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit and re-run' }));
    expect(memory.history.at(-1)).toBe('/');
    // The form reads its draft as it opens: the task's request is it now.
    expect(JSON.parse(localStorage.getItem('media-console:draft:image-generate')!)).toMatchObject({
      prompt: 'A paper boat',
      generate_count: 1,
    });
  });

  it("asks first before re-running someone else's task, as a new request in my name", async () => {
    const id = await createdBy('Ada');
    signedInAs('Grace');
    let created = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).startsWith('/v1/')) created += 1;
      return server.request(input, init, asPerson('Grace'));
    });
    renderDetail(id);
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run…' }));
    const confirm = await screen.findByRole('group', { name: 'Re-run this task' });
    expect(confirm).toHaveTextContent(
      'Re-run sends the same request again and spends 1 task and 1 image as a new request in your name (this is Ada’s task).',
    );
    expect(created).toBe(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(created).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Re-run…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run as mine' }));
    await waitFor(() => expect(created).toBe(1));
  });

  it('shows a viewer Re-run disabled, with the reason, and no Animate', async () => {
    const id = await createdBy('Ada');
    signedInAs('Vera', 'viewer');
    renderDetail(id);
    const rerun = await screen.findByRole('button', { name: /^Re-run/ });
    expect(rerun).toBeDisabled();
    expect(rerun).toHaveAccessibleDescription(/Only creators and admins can re-run or animate tasks/);
    expect(screen.queryByRole('link', { name: 'Animate' })).toBeNull();
  });
});
