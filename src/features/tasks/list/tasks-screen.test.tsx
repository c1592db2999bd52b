// @vitest-environment jsdom
// The Tasks screen against the real Node side (recorder, /__console/tasks, PGlite in memory), fetch
// routed to it; the event stream is a test double fed with the server's own task answers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { asPerson, person } from '../../../../server/testing/identity';
import type { ConsoleInfo } from '@/api/console-info';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { FakeEventSource } from '@/testing/fake-event-source';
import { testNodeApp } from '../../../../server/testing/test-node-app';
import { applyStatus } from '../../../../server/tasks/recorder';
import { addLookedUpTasks, recordCreatedTasks } from '@/features/tasks/history/history';
import { RESULT_LIFETIME_MS } from '@/features/tasks/shared/result-expiry';
import { StatusTabs } from './task-filters';
import { PAGE_SIZE } from '@/features/tasks/team/team-tasks';
import { TasksScreenContent } from './tasks-screen';
import { emptyHistory } from '@/testing/history';

const server = testNodeApp('tasks-screen');
let listFails = false;
let consoleInfo: ConsoleInfo;

beforeEach(async () => {
  await server.open();
  listFails = false;
  await emptyHistory();
  localStorage.clear();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('scrollTo', () => {});
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    if (listFails && input.startsWith('/__console/tasks?'))
      return Promise.resolve(Response.json({ code: 500, msg: 'database unavailable' }, { status: 500 }));
    return server.request(input, init);
  });
  consoleInfo = testConsoleInfo();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

async function create(prompt: string, user: string, count = 1): Promise<string[]> {
  const response = await server.request(
    `/v1/image_generate`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, generate_count: count }),
    },
    asPerson(user),
  );
  return ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids;
}

/** A status request through the server, as any browser's poller makes it: the record moves on. */
const poll = (id: string) => server.request(`/v1/image_generate/${id}`);

/** What the server's event stream would push for this task. */
async function push(id: string) {
  const body = (await (await server.request(`/__console/tasks/${id}`)).json()) as {
    data: { task: unknown };
  };
  act(() => {
    for (const source of FakeEventSource.instances) if (!source.closed) source.emit('task', body.data.task);
  });
}

function renderScreen(path = '/tasks') {
  const memory = memoryLocation({ path, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    withConsoleInfo(
      consoleInfo,
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <TasksScreenContent />
        </Router>
      </QueryClientProvider>,
    ),
  );
  return memory;
}

const cards = () => screen.queryAllByRole('article').map((card) => card.getAttribute('aria-labelledby'));
const tab = (name: RegExp) => screen.getByRole('tab', { name });
/** A card is named by its prompt; its id is the secondary line. */
const cardOf = (id: string) => screen.getByText(id).closest('article') as HTMLElement;
const findCard = async (id: string) => (await screen.findByText(id)).closest('article') as HTMLElement;

describe("Tasks screen: the team's list", () => {
  it('lists every creator’s tasks newest first with the server’s counts, and the creator on each card', async () => {
    const [first] = await create('A lighthouse', 'Ada');
    const [second] = await create('A cat', 'Grace');
    renderScreen();
    await waitFor(() => expect(cards()).toEqual([`task-${second}`, `task-${first}`]));
    expect(tab(/All 2/)).toHaveAttribute('aria-selected', 'true');
    expect(within(cardOf(second!)).getByText('Grace')).toBeVisible();
    expect(within(cardOf(first!)).getByText('Ada')).toBeVisible();
  });

  it('"Mine" asks the server for this browser’s name only, and the URL keeps it', async () => {
    const [ada] = await create('Mine', 'Ada');
    await create('Theirs', 'Grace');
    consoleInfo = testConsoleInfo({ user: { ...person('Ada'), id: person('Ada').userId } });
    const memory = renderScreen();
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Mine' }));
    await waitFor(() => expect(cards()).toEqual([`task-${ada}`]));
    expect(memory.history?.at(-1)).toBe('/tasks?mine=1');
    expect(tab(/All 1/)).toBeInTheDocument();
  });

  it('opens the view a filter URL describes, and the search box searches the creator too', async () => {
    const [failed] = await create('emulator:fail please', 'Grace');
    const [ok] = await create('A quiet harbour', 'Grace');
    await create('Another', 'Ada');
    await poll(failed!);
    await poll(ok!);
    renderScreen('/tasks?tab=failed&q=grace');
    await waitFor(() => expect(cards()).toEqual([`task-${failed}`]));
    expect(tab(/Failed 1/)).toHaveAttribute('aria-selected', 'true');
    expect(tab(/All 2/)).toBeInTheDocument(); // both of Grace's, whatever their state
    expect(screen.getByRole('searchbox', { name: 'Search tasks' })).toHaveValue('grace');
  });

  it('keeps the tab counts it has, marked busy, while a narrowed view’s counts load: never "0"', async () => {
    const [failed] = await create('emulator:fail please', 'Grace');
    await create('A quiet harbour', 'Ada');
    await poll(failed!);
    renderScreen();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(tab(/^Failed 1$/)).toBeInTheDocument();
    // Grace's view is held back by the server until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const routed = fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (input.startsWith('/__console/tasks?') && input.includes('q=grace')) await held;
      return routed(input, init);
    });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tasks' }), 'grace');
    const tabs = screen.getByRole('tablist', { name: 'Task status' });
    await waitFor(() => expect(tabs).toHaveAttribute('aria-busy', 'true'));
    // The counts it had stay while it loads (they said 0 here before).
    expect(tab(/^All 2$/)).toBeInTheDocument();
    expect(tab(/^Failed 1$/)).toBeInTheDocument();
    expect(screen.getByText(/Loading the team.s tasks/)).toBeVisible();
    release();
    await waitFor(() => expect(tab(/^All 1$/)).toBeInTheDocument());
    expect(tabs).toHaveAttribute('aria-busy', 'false');
    expect(tab(/^Failed 1$/)).toBeInTheDocument();
    expect(cards()).toEqual([`task-${failed}`]);
  });

  it('search is debounced into the URL, replacing its entry rather than adding one per letter', async () => {
    await create('A red fox', 'Ada');
    await create('A blue whale', 'Ada');
    const memory = renderScreen();
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tasks' }), 'fox');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(memory.history).toEqual(['/tasks?q=fox']);
  });

  it('loads the next page as the grid scrolls to its end', async () => {
    const total = PAGE_SIZE + 5;
    const { db } = server.database;
    for (let i = 0; i < total; i++)
      await db
        .transaction()
        .execute((trx) =>
          applyStatus(trx, 'image_generate', `i2is-bulk-${i}`, { status: 'SUCCEEDED' }, 'lookup'),
        );
    const pages: string[] = [];
    const routed = fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      if (input.startsWith('/__console/tasks?')) pages.push(input);
      return routed(input, init);
    });
    const ends: IntersectionObserverCallback[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          ends.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    // By task: the tab's count is the list's size (by request, the cards' number is not known ahead).
    renderScreen('/tasks?by=task');
    // The first page is a plain grid: every task of it is in the list, nothing virtual yet.
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(PAGE_SIZE);
    expect(within(list).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', String(total));
    expect(pages).toHaveLength(1);
    // Its end comes into view: the next page is asked for.
    act(() =>
      ends.at(-1)!([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
    );
    await waitFor(() => expect(pages.some((url) => url.includes('cursor='))).toBe(true));
    // Past one page the grid is virtualized (once its module has loaded, every task is in the list)...
    await waitFor(() =>
      expect(within(screen.getByRole('list')).getAllByRole('listitem').length).toBeLessThan(PAGE_SIZE),
    );
    // ...and scrolled to the end, the last task is there.
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 416 * total, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() =>
      expect(
        within(screen.getByRole('list'))
          .getAllByRole('listitem')
          .map((item) => item.getAttribute('aria-posinset')),
      ).toContain(String(total)),
    );
  });
  it('a search the server cut short says how far it looked and goes on only when asked', async () => {
    const [fox] = await create('A red fox', 'Ada');
    // The first page stops at its time limit having looked at tasks newer than `lookedAt` only;
    // going on from there, the real server finds the fox.
    const lookedAt = Date.UTC(2099, 0, 2, 12);
    const requests: string[] = [];
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      if (input.startsWith('/__console/tasks?q=') || input.includes('&q=')) requests.push(input);
      if (input.includes('q=fox') && !input.includes('cursor='))
        return Promise.resolve(
          Response.json({
            code: 0,
            data: {
              items: [],
              nextCursor: `${lookedAt}.i2is-zzz`,
              cutShort: true,
              counts: { all: null, running: null, succeeded: null, failed: null },
            },
          }),
        );
      return real(input, init);
    });
    renderScreen('/tasks?q=fox');
    const more = await screen.findByRole('button', { name: 'Search older tasks' });
    expect(screen.getByText(/No matches so far among tasks created since .*2099/)).toBeVisible();
    expect(screen.queryByText('No tasks match these filters.')).toBeNull();
    expect(tab(/^All not counted$/)).toBeInTheDocument();
    // Nothing more is fetched until asked: the click's request is the second one, and the only one
    // after the first (a fetch made unasked would have come before it).
    await userEvent.click(more);
    await waitFor(() => expect(cards()).toEqual([`task-${fox}`]));
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain(`cursor=${lookedAt}.i2is-zzz`);
    expect(screen.queryByRole('button', { name: 'Search older tasks' })).toBeNull();
  });

  it('shows a count the server could not have in time (null) as "?", and a capped one as "1,000+"', () => {
    const { rerender } = render(
      <StatusTabs
        value="failed"
        counts={{ all: 1000, running: null, succeeded: 1000, failed: null }}
        onChange={() => {}}
      />,
    );
    // "?" on screen, "not counted" to a screen reader.
    expect(tab(/^Failed not counted$/)).toHaveAttribute('aria-selected', 'true');
    expect(within(tab(/^In progress/)).getByText('?')).toBeVisible();
    expect(tab(/^Succeeded 1,000$/)).toBeInTheDocument();
    rerender(
      <StatusTabs
        value="failed"
        counts={{ all: 1000, running: 12, succeeded: 1000, failed: null }}
        capped
        onChange={() => {}}
      />,
    );
    expect(tab(/^Succeeded 1,000\+$/)).toBeInTheDocument();
    expect(tab(/^All 1,000\+$/)).toBeInTheDocument();
    expect(tab(/^In progress 12$/)).toBeInTheDocument();
  });
});

describe('Tasks screen: live', () => {
  it('puts a task created elsewhere at the top, moves a status change in place, and refreshes the counts', async () => {
    const [old] = await create('Old', 'Ada');
    renderScreen();
    await waitFor(() => expect(cards()).toEqual([`task-${old}`]));
    const [fresh] = await create('Fresh', 'Grace');
    await push(fresh!);
    await waitFor(() => expect(cards()).toEqual([`task-${fresh}`, `task-${old}`]));
    await poll(old!);
    await push(old!);
    const card = cardOf(old!);
    await waitFor(() => expect(within(card).getByText('SUCCEEDED')).toBeVisible());
    await waitFor(() => expect(tab(/Succeeded 1/)).toBeInTheDocument());
    expect(tab(/All 2/)).toBeInTheDocument();
  });

  it('a task that no longer fits the tab leaves it', async () => {
    const [task] = await create('Running', 'Ada');
    renderScreen('/tasks?tab=running');
    await waitFor(() => expect(cards()).toEqual([`task-${task}`]));
    await poll(task!);
    await push(task!);
    await waitFor(() => expect(cards()).toEqual([]));
  });
});

describe('Tasks screen: by request', () => {
  it('a request of three images is one card of three thumbnails; By task shows three cards, kept in the URL and this browser', async () => {
    const ids = await create('Three bicycles', 'Ada', 3);
    const memory = renderScreen();
    const card = await screen.findByRole('article', { name: 'Three bicycles' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(3);
    expect(within(card).getByRole('link', { name: 'Three bicycles' })).toHaveAttribute(
      'href',
      `/requests/req-${ids[0]}`,
    );
    expect(screen.getByRole('button', { name: 'By request' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'By task' }));
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Three bicycles' })).toHaveLength(3));
    expect(memory.history?.at(-1)).toBe('/tasks?by=task');
    expect(localStorage.getItem('media-console:tasks-by')).toBe('task');
  });

  it('a push that arrives while the list is being read still reaches the card', async () => {
    const [id] = await create('Read meanwhile', 'Ada');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const answer = await server.request(input, init);
      if (input.startsWith('/__console/tasks?')) await held; // read before the change, answered after it
      return answer;
    });
    renderScreen();
    await waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(0));
    await poll(id!);
    await push(id!);
    release();
    const card = await screen.findByRole('article', { name: 'Read meanwhile' });
    await waitFor(() => expect(within(card).getByText('SUCCEEDED')).toBeVisible());
  });
});

describe('Tasks screen: fallback and expiry', () => {
  it('when the server cannot list, says so and shows this browser’s own history', async () => {
    listFails = true;
    await recordCreatedTasks('image_generate', { prompt: 'Kept locally' }, [{ task_id: 'i2is-local-1' }]);
    renderScreen();
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be read \(database unavailable\)/);
    expect(await screen.findByRole('article', { name: 'Kept locally' })).toHaveTextContent('Kept locally');
    listFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('filters the history by the same rule as the server: Mine and a search by name find what this browser made', async () => {
    listFails = true;
    consoleInfo = testConsoleInfo({ user: { ...person('Ada'), id: person('Ada').userId } });
    await recordCreatedTasks('image_generate', { prompt: 'Made here' }, [{ task_id: 'i2is-rule-made' }]);
    await addLookedUpTasks([{ id: 'i2is-rule-seen', kind: 'image_generate' }]);
    // (The history may hold other tests' tasks: only these two are looked at.)
    const ours = () => cards().filter((id) => id?.startsWith('task-i2is-rule-'));
    renderScreen('/tasks');
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be read/);
    await waitFor(() => expect(ours()).toEqual(['task-i2is-rule-seen', 'task-i2is-rule-made']));
    cleanup();
    renderScreen('/tasks?mine=1');
    await waitFor(() => expect(ours()).toEqual(['task-i2is-rule-made']));
    cleanup();
    renderScreen('/tasks?q=ada');
    await waitFor(() => expect(ours()).toEqual(['task-i2is-rule-made']));
    cleanup();
    // A task the service no longer finds is in progress, as on the server; its card says so.
    await addLookedUpTasks([
      {
        id: 'i2is-rule-gone',
        kind: 'image_generate',
        lastError: { kind: 'not_found', httpStatus: 404, code: 100003, msg: 'task not found', at: 1 },
      },
    ]);
    renderScreen('/tasks?tab=running&q=gone');
    const card = await screen.findByRole('article', { name: 'i2is-rule-gone' });
    expect(within(card).getByText('Not found')).toBeVisible();
  });

  it('a result older than 7 days says "Result expired" instead of an image, and offers no Animate', async () => {
    const [id] = await create('Long ago', 'Ada');
    await poll(id!);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RESULT_LIFETIME_MS + 60_000 });
    renderScreen();
    const card = await findCard(id!);
    expect(within(card).getByText('Result expired')).toBeVisible();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Animate' })).toBeNull();
  });
});

describe('Tasks screen: the tasks I hid', () => {
  /** The page's requests made by Ada, signed in. */
  const asAda = () =>
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
      server.request(input, init, asPerson('Ada')),
    );
  const hide = (ids: string[], hidden: boolean, user = 'Ada') =>
    server.request(
      '/__console/tasks/hidden',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids, hidden }),
      },
      asPerson(user),
    );

  it('are out of the cards and the tab counts; "Show hidden" is in the URL and brings them back', async () => {
    asAda();
    const [kept] = await create('Kept', 'Ada');
    const [gone] = await create('Gone', 'Ada');
    await hide([gone!], true);
    // Someone else's hides are theirs.
    await hide([kept!], true, 'Grace');
    const memory = renderScreen();
    await waitFor(() => expect(cards()).toEqual([`task-${kept}`]));
    expect(tab(/All 1/)).toBeInTheDocument();
    const showHidden = await screen.findByRole('checkbox', { name: 'Show hidden (1)' });
    await userEvent.click(showHidden);
    expect(memory.history?.at(-1)).toBe('/tasks?hidden=show');
    await waitFor(() => expect(cards()).toEqual([`task-${gone}`, `task-${kept}`]));
    expect(tab(/All 2/)).toBeInTheDocument();
    // The hidden one says so on its card.
    const marks = screen.getAllByText('Hidden from your view');
    expect(marks).toHaveLength(1);
    expect(marks[0]!.parentElement).toContainElement(cardOf(gone!));
  });

  it('a link with hidden=show opens the same view, and Unhide brings the task back for good', async () => {
    asAda();
    const [kept] = await create('Kept', 'Ada');
    const [gone] = await create('Gone', 'Ada');
    await hide([gone!], true);
    const memory = renderScreen('/tasks?hidden=show');
    await waitFor(() => expect(cards()).toEqual([`task-${gone}`, `task-${kept}`]));
    expect(await screen.findByRole('checkbox', { name: 'Show hidden (1)' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Gone' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Unhide' }));
    expect(await screen.findByText('1 task back in your view.')).toBeVisible();
    await userEvent.click(screen.getByRole('checkbox', { name: /^Show hidden/ }));
    expect(memory.history?.at(-1)).toBe('/tasks');
    await waitFor(() => expect(cards()).toEqual([`task-${gone}`, `task-${kept}`]));
    expect(tab(/All 2/)).toBeInTheDocument();
  });

  it('"Hide from my view" takes the card out and the server\'s counts down', async () => {
    asAda();
    const [kept] = await create('Kept', 'Ada');
    const [gone] = await create('Gone', 'Ada');
    renderScreen('/tasks?by=task');
    await waitFor(() => expect(cards()).toEqual([`task-${gone}`, `task-${kept}`]));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Gone' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Hide from my view' }));
    await waitFor(() => expect(cards()).toEqual([`task-${kept}`]));
    await waitFor(() => expect(tab(/All 1/)).toBeInTheDocument());
  });

  it('"Show hidden" stays within reach while cards are selected, and keeps the selection', async () => {
    asAda();
    const [kept] = await create('Kept', 'Ada');
    const [gone] = await create('Gone', 'Ada');
    await hide([gone!], true);
    const memory = renderScreen('/tasks?by=task');
    await waitFor(() => expect(cards()).toEqual([`task-${kept}`]));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Kept' }));
    const bar = await screen.findByRole('region', { name: 'Selected tasks' });
    expect(within(bar).getByText('1 task selected')).toBeVisible();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Show hidden (1)' }));
    expect(memory.history?.at(-1)).toBe('/tasks?by=task&hidden=show');
    await waitFor(() => expect(cards()).toEqual([`task-${gone}`, `task-${kept}`]));
    expect(screen.getByRole('checkbox', { name: 'Select Kept' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Show hidden (1)' })).toBeChecked();
  });

  it('a change pushed live does not bring a hidden task back', async () => {
    asAda();
    const [kept] = await create('Kept', 'Ada');
    const [gone] = await create('Gone', 'Ada');
    await hide([gone!], true);
    renderScreen();
    await waitFor(() => expect(cards()).toEqual([`task-${kept}`]));
    await screen.findByRole('checkbox', { name: 'Show hidden (1)' });
    await poll(gone!);
    await push(gone!);
    await poll(kept!);
    await push(kept!);
    await waitFor(() => expect(within(cardOf(kept!)).getByText('SUCCEEDED')).toBeVisible());
    expect(cards()).toEqual([`task-${kept}`]);
    await waitFor(() => expect(tab(/Succeeded 1/)).toBeInTheDocument());
    expect(tab(/All 1/)).toBeInTheDocument();
  });
});
