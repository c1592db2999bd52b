// @vitest-environment jsdom
// The star toggle (shown at once, put back with the server's reason when refused), Compare's bounds
// (two to four; one and five are refused with the reason), and the form's board choice.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { creationBoard, setCreationBoard } from '@/api/board-choice';
import { StarButton } from '@/features/tasks/shared/stars';
import { BoardChoice } from '@/forms/board-choice';
import { emulateModalDialogs } from '@/testing/modal-dialog';
import { CompareLink } from './compare-link';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCreationBoard(undefined);
});

function withClient(children: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('StarButton', () => {
  it('stars at once, and says so to the server', async () => {
    let stars: string[] = [];
    fetchMock.mockImplementation(async (_url, init) => {
      if (init?.method === 'POST') {
        stars = ['t1'];
        return json({ code: 0, msg: 'ok', data: { changed: 1 } });
      }
      return json({ code: 0, msg: 'ok', data: { ids: stars } });
    });
    render(withClient(<StarButton ids={['t1']} what="Red fox" />));
    const button = await screen.findByRole('button', { name: 'Star Red fox' });
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'false'));
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]!.body as string)).toEqual({ ids: ['t1'], starred: true });
  });

  it('is put back, with the reason, when the server refuses (past the bound)', async () => {
    fetchMock.mockImplementation(async (_url, init) =>
      init?.method === 'POST'
        ? json({ code: 400, msg: 'You can star at most 5000 results: unstar some first' }, 400)
        : json({ code: 0, msg: 'ok', data: { ids: [] } }),
    );
    render(withClient(<StarButton ids={['t1']} what="Red fox" />));
    const button = await screen.findByRole('button', { name: 'Star Red fox' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('at most 5000');
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows nothing where the record is not read (no query client)', () => {
    render(<StarButton ids={['t1']} what="Red fox" />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('CompareLink', () => {
  const show = (ids: string[]) =>
    render(
      <Router hook={memoryLocation().hook}>
        <CompareLink ids={ids} />
      </Router>,
    );
  it.each([[['a']], [['a', 'b', 'c', 'd', 'e']]])('refuses %j, and says why', (ids) => {
    show(ids);
    expect(screen.getByRole('button', { name: 'Compare' })).toBeDisabled();
    expect(screen.getByText(`Choose 2 to 4 results to compare (${ids.length} selected)`)).toBeTruthy();
  });
  it.each([[['a', 'b']], [['a', 'b', 'c', 'd']]])('opens %j side by side', (ids) => {
    show(ids);
    expect(screen.getByRole('link', { name: `Compare ${ids.length}` })).toHaveAttribute(
      'href',
      `/compare?ids=${ids.join('%2C')}`,
    );
  });
});

describe('BoardChoice on a creation form', () => {
  it('lists the boards, keeps the one chosen for the tab, and goes back to none', async () => {
    fetchMock.mockImplementation(async () =>
      json({
        code: 0,
        msg: 'ok',
        data: {
          boards: [
            { id: 'b-1', name: 'Keepers' },
            { id: 'b-2', name: 'Launch' },
          ],
        },
      }),
    );
    emulateModalDialogs();
    render(<BoardChoice />);
    await userEvent.click(screen.getByRole('button', { name: 'Save to a board…' }));
    const select = await screen.findByRole('combobox', { name: 'Board' });
    await waitFor(() => expect(select).toBeEnabled());
    await userEvent.selectOptions(select, 'Launch');
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Saves to board: Launch' })).toBeTruthy();
    expect(creationBoard()).toEqual({ id: 'b-2', name: 'Launch' });
    expect(JSON.parse(sessionStorage.getItem('media-console:creation-board')!)).toEqual({
      id: 'b-2',
      name: 'Launch',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Saves to board: Launch' }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Board' }), 'No board');
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Save to a board…' })).toBeTruthy();
    expect(creationBoard()).toBeUndefined();
  });
});
