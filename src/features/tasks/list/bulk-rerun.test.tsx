// @vitest-environment jsdom
// A bulk re-run that meets a limit part-way (the service's rate limit, the console's own spending
// limit: both HTTP 429): the bar says which tasks re-ran and which did not and why, keeps the ones
// not sent selected, and "Re-run…" again sends those and only those. The emulator answers the
// creations; a test scripts the 429 it does not give on request.
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMIT_REFUSAL_CODE } from '@/api/limits';
import { envelope, renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { BulkSlot } from './bulk-bar';
import { emptyHistory } from '@/testing/history';
import type { TeamTask } from '@/features/tasks/team/team-tasks';

beforeEach(() => emptyHistory());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const image = (n: number, prompt: string): TeamTask => ({
  id: `old-${n}`,
  kind: 'image_generate',
  source: 'created',
  status: 'SUCCEEDED',
  result: {},
  createdAt: 1_000 - n,
  updatedAt: 1_000 - n,
  prompt,
  title: prompt,
  requestId: `req-${n}`,
  params: { prompt, generate_count: 1 },
});

const TASKS = [image(1, 'A red fox'), image(2, 'A blue whale'), image(3, 'A green frog')];

function Slot({ tasks }: { tasks: TeamTask[] }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(tasks.map((task) => task.id)));
  return (
    <BulkSlot
      query={{ tab: 'all' }}
      selected={selected}
      setSelected={(ids) => setSelected(new Set(ids))}
      loaded={new Map(tasks.map((task) => [task.id, task]))}
      hiddenCount={0}
      showHidden={false}
      onShowHidden={() => {}}
      selectAllNow={false}
    />
  );
}

/** Creation POSTs: the `refuseAt`-th (1-based) answers `refusal`; the others go to the emulator. */
function scripted(refuseAt: number, refusal: () => Response) {
  let n = 0;
  const stub = stubFetch({
    create: async (body, url) => {
      n++;
      if (n === refuseAt) return refusal();
      return stub.emulator.app.fetch(
        new Request(`http://console.test${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer test' },
          body: JSON.stringify(body),
        }),
      );
    },
  });
  return stub;
}

const prompts = (posts: { body: unknown }[]) => posts.map((post) => (post.body as { prompt: string }).prompt);

async function rerunAll(count: number) {
  const bar = screen.getByRole('region', { name: 'Selected tasks' });
  await userEvent.click(within(bar).getByRole('button', { name: 'Re-run…' }));
  await userEvent.click(
    within(bar).getByRole('button', { name: `Re-run ${count} task${count === 1 ? '' : 's'}` }),
  );
  return bar;
}

describe('a bulk re-run that meets a limit part-way', () => {
  it("the service's rate limit: names what re-ran and what did not, keeps those selected, sends only them again", async () => {
    const stub = scripted(2, () =>
      Response.json(
        { code: 429, msg: 'Rate limit exceeded' },
        { status: 429, headers: { 'retry-after': '30' } },
      ),
    );
    renderWithClient(<Slot tasks={TASKS} />);
    const bar = await rerunAll(3);
    const report = await within(bar).findByText(/not re-run/);
    const status = report.closest('[role="status"]') as HTMLElement;
    expect(status).toHaveTextContent('Re-ran 1 of 3 tasks (1 new request sent). 2 not re-run');
    expect(status).toHaveTextContent(
      "stopped by the service's rate limit (HTTP 429: Rate limit exceeded); try again in 30 s",
    );
    expect(status).toHaveTextContent('They stay selected: "Re-run…" again sends only them.');
    const [reran, notReran] = within(status).getAllByRole('list');
    expect(
      within(reran!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['A red fox']);
    expect(
      within(notReran!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      "A blue whale: the service's rate limit (HTTP 429: Rate limit exceeded); try again in 30 s",
      'A green frog: not sent: stopped before it',
    ]);
    // It stopped at the 429: the third was never sent.
    expect(prompts(stub.posts)).toEqual(['A red fox', 'A blue whale']);
    expect(bar).toHaveTextContent('2 tasks selected');

    // Again, once the limit has passed: only the two not sent go, and the selection is spent.
    await rerunAll(2);
    expect(await screen.findByText('Re-ran 2 tasks: 2 new requests sent.')).toBeVisible();
    expect(prompts(stub.posts)).toEqual(['A red fox', 'A blue whale', 'A blue whale', 'A green frog']);
    expect(screen.queryByRole('region', { name: 'Selected tasks' })).toBeNull();
  });

  it("the console's own spending limit says so, with the limit's words", async () => {
    const stub = scripted(3, () =>
      Response.json(
        { code: LIMIT_REFUSAL_CODE, msg: 'Your daily limit of 2 tasks is reached' },
        { status: 429, headers: { 'retry-after': '120' } },
      ),
    );
    renderWithClient(<Slot tasks={TASKS} />);
    const bar = await rerunAll(3);
    const status = (await within(bar).findByText(/not re-run/)).closest('[role="status"]') as HTMLElement;
    expect(status).toHaveTextContent('Re-ran 2 of 3 tasks (2 new requests sent). 1 not re-run');
    expect(status).toHaveTextContent(
      'A green frog: a spending limit of this console: Your daily limit of 2 tasks is reached; try again in 120 s',
    );
    expect(status).toHaveTextContent('It stays selected');
    expect(bar).toHaveTextContent('1 task selected');
    expect(prompts(stub.posts)).toEqual(['A red fox', 'A blue whale', 'A green frog']);
  });

  it('a request the service refuses is that request alone: the others still go', async () => {
    const stub = scripted(1, () => envelope(undefined, 530003, 'Task creation failed'));
    renderWithClient(<Slot tasks={TASKS} />);
    const bar = await rerunAll(3);
    const status = (await within(bar).findByText(/not re-run/)).closest('[role="status"]') as HTMLElement;
    expect(status).toHaveTextContent('Re-ran 2 of 3 tasks (2 new requests sent). 1 not re-run.');
    expect(status).toHaveTextContent('A red fox: the service refused it: Task creation failed');
    expect(prompts(stub.posts)).toEqual(['A red fox', 'A blue whale', 'A green frog']);
  });

  it('a task with no request to send again is named, not kept selected', async () => {
    stubFetch();
    const lookedUp: TeamTask = { ...image(4, 'Looked up'), source: 'lookup', params: undefined };
    renderWithClient(<Slot tasks={[TASKS[0]!, lookedUp]} />);
    await rerunAll(2);
    // The report, once the re-run is over (while it runs, another status says so).
    const status = (await screen.findByText(/not re-run/)).closest('[role="status"]') as HTMLElement;
    expect(status).toHaveTextContent('Re-ran 1 of 2 tasks (1 new request sent). 1 not re-run.');
    expect(status).toHaveTextContent('Looked up: this console does not have the request that made it');
    // Nothing left that a second try could send: the selection is spent.
    expect(screen.queryByRole('region', { name: 'Selected tasks' })).toBeNull();
  });
});
