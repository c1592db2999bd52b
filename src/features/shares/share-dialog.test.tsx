// @vitest-environment jsdom
// The share dialog: a lifetime past the bound is said by the field and never sent; a link made is
// shown once with its address; the live links are listed and revoked after a second press.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emulateModalDialogs } from '@/testing/modal-dialog';
import { ShareDialog } from './share-dialog';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const LINK = {
  id: 'sh-1',
  board: 'b-1',
  request: null,
  title: 'Picks',
  createdBy: 'Ana',
  createdById: 'u-ana',
  createdAt: Date.UTC(2026, 10, 1),
  expiresAt: Date.UTC(2026, 10, 8),
  openedCount: 2,
  lastOpenedAt: Date.UTC(2026, 10, 2),
};

beforeAll(() => emulateModalDialogs());
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ShareDialog', () => {
  it('refuses 91 days by the field, makes a 90-day link and shows its address once', async () => {
    let live: (typeof LINK)[] = [];
    fetchMock.mockImplementation(async (url, init) => {
      if (init?.method === 'POST') {
        live = [LINK];
        return json({ id: 'sh-1', url: 'http://console.test/s/abc', expiresAt: LINK.expiresAt }, 201);
      }
      expect(String(url)).toBe('/__console/shares?board=b-1');
      return json({ code: 0, msg: 'ok', data: { shares: live } });
    });
    render(<ShareDialog target={{ board: 'b-1' }} what="Picks" onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Share “Picks”' });
    const days = within(dialog).getByLabelText('Link lives (days)');
    await userEvent.clear(days);
    await userEvent.type(days, '91');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(days).toHaveAccessibleDescription(/at most 90 days/);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await userEvent.clear(days);
    await userEvent.type(days, '90');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByLabelText('Share link')).toHaveValue('http://console.test/s/abc');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]!.body as string)).toEqual({ board: 'b-1', expiresInDays: 90 });
    const links = await within(dialog).findByRole('region', { name: 'Live links' });
    expect(links).toHaveTextContent('Opened 2 times');
  });

  it('revokes a live link only after the second press', async () => {
    let live = [LINK];
    fetchMock.mockImplementation(async (url, init) => {
      if (init?.method === 'DELETE') {
        expect(String(url)).toBe('/__console/shares/sh-1');
        live = [];
        return json({ code: 0, msg: 'ok', data: { ok: true } });
      }
      return json({ code: 0, msg: 'ok', data: { shares: live } });
    });
    render(<ShareDialog target={{ request: 'req-1' }} what="Dunes" onClose={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke…' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Live links' })).toBeNull());
  });
});
