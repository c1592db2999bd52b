// @vitest-environment jsdom
// The API tokens section of the People screen against the real Node side (server/identity, PGlite in
// memory), fetch routed to it as a signed-in person: the fields' bounds, a token shown once that
// then works with curl's header, revoking, and who sees whose tokens.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_KEY, type Identity } from '../../../server/identity/request-identity';
import { testNodeApp } from '../../../server/testing/test-node-app';
import { TOKEN_DAYS_MAX, TOKEN_NAME_MAX, TOKENS_PER_PERSON_MAX, type CreatedToken } from '@/api/api-tokens';
import type { Role } from '@/api/roles';
import { ApiTokensSection, tokenFieldProblems } from './api-tokens-section';

const server = testNodeApp('api-tokens-section');
let me: Identity;

async function personNamed(name: string, role: Role): Promise<Identity> {
  const row = await server.nodeApp.identity.upsertPerson({ source: 'local', subject: name, name, role });
  return { userId: row.id, name, role, source: 'local' };
}

/** The page's requests go to the Node side as `me`, as the sign-in layer hands them over. */
function routeFetchAs(who: () => Identity) {
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    server.request(input, init, { [IDENTITY_KEY]: who() }),
  );
}

beforeEach(async () => {
  await server.open();
  me = await personNamed('Ana', 'creator');
  routeFetchAs(() => me);
  vi.stubGlobal('confirm', () => true);
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

/** The list item of the token named `name` (its Revoke button repeats the name for screen readers). */
function itemNamed(list: HTMLElement, name: string): HTMLElement {
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.querySelector('p')?.textContent?.startsWith(name));
  if (!item) throw new Error(`no token named ${name}`);
  return item;
}

async function fill(name: string, days: string) {
  const nameBox = screen.getByLabelText('Token name');
  const daysBox = screen.getByLabelText('Expires in (days)');
  await userEvent.clear(nameBox);
  if (name) await userEvent.type(nameBox, name);
  await userEvent.clear(daysBox);
  if (days) await userEvent.type(daysBox, days);
  await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
}

describe('the fields', () => {
  it('follow the server’s bounds, exactly at each and one past', () => {
    expect(tokenFieldProblems('n'.repeat(TOKEN_NAME_MAX), '1')).toEqual({});
    expect(tokenFieldProblems('n'.repeat(TOKEN_NAME_MAX + 1), '1').name).toBe(
      `A token's name is at most ${TOKEN_NAME_MAX} characters`,
    );
    expect(tokenFieldProblems('  ', '1').name).toBe('Give the token a name');
    expect(tokenFieldProblems('a', String(TOKEN_DAYS_MAX))).toEqual({});
    expect(tokenFieldProblems('a', String(TOKEN_DAYS_MAX + 1)).days).toBe(
      `A token lasts at most ${TOKEN_DAYS_MAX} days`,
    );
    expect(tokenFieldProblems('a', '0').days).toBe('A token lasts at least 1 day');
    expect(tokenFieldProblems('a', '1.5').days).toBe('Enter a whole number of days');
    expect(tokenFieldProblems('a', '').days).toBe('Enter a whole number of days');
  });

  it('show what is wrong next to the field and send nothing', async () => {
    const sent = vi.fn();
    const routed = fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      if (init?.method === 'POST') sent();
      return routed(input, init);
    });
    render(<ApiTokensSection me={me.userId} everyone={false} />);
    await screen.findByText('You have no API tokens.');
    await fill('', String(TOKEN_DAYS_MAX + 1));
    expect(screen.getByLabelText('Token name')).toHaveAccessibleDescription(/Give the token a name/);
    expect(screen.getByLabelText('Expires in (days)')).toHaveAccessibleDescription(
      new RegExp(`at most ${TOKEN_DAYS_MAX} days`),
    );
    expect(screen.getByLabelText('Token name')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).not.toHaveBeenCalled();
  });
});

describe('a new token', () => {
  it('is shown once, works as a bearer token, and stops when revoked', async () => {
    render(<ApiTokensSection me={me.userId} everyone={false} />);
    await screen.findByText('You have no API tokens.');
    await fill('nightly batch', '7');
    const shown = await screen.findByLabelText('New API token');
    const token = shown.textContent!;
    expect(token).toMatch(/^mct_/);
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Your API tokens' });
    const item = itemNamed(list, 'nightly batch');
    expect(within(item).getByText('Active')).toBeInTheDocument();

    // A script's request with it acts as Ana.
    const asScript = () =>
      server.request('/__console/config', { headers: { authorization: `Bearer ${token}` } });
    const config = (await (await asScript()).json()) as { user: { name: string } };
    expect(config.user.name).toBe('Ana');

    await userEvent.click(within(item).getByRole('button', { name: 'Revoke nightly batch' }));
    await waitFor(() => expect(within(item).getByText('Revoked')).toBeInTheDocument());
    // The token is gone from the page, and refused from now on.
    expect(screen.queryByLabelText('New API token')).toBeNull();
    expect((await asScript()).status).toBe(401);
  });

  it('shows the server’s refusal by the form: past the most tokens a person may hold', async () => {
    for (let i = 0; i < TOKENS_PER_PERSON_MAX; i++)
      await server.request(
        '/__console/tokens',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `t${i}`, expiresInDays: 1 }),
        },
        { [IDENTITY_KEY]: me },
      );
    render(<ApiTokensSection me={me.userId} everyone={false} />);
    await screen.findByRole('list', { name: 'Your API tokens' });
    await fill('one more', '1');
    expect(await screen.findByRole('alert')).toHaveTextContent('revoke one first');
  });
});

describe('whose tokens', () => {
  it('a person sees their own; an admin everyone’s, with their names, and may revoke them', async () => {
    const ben = await personNamed('Ben', 'viewer');
    const ada = await personNamed('Ada', 'admin');
    const make = async (who: Identity, name: string) =>
      (await (
        await server.request(
          '/__console/tokens',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name, expiresInDays: 30 }),
          },
          { [IDENTITY_KEY]: who },
        )
      ).json()) as CreatedToken;
    await make(me, 'ana script');
    const bens = await make(ben, 'ben script');

    const { unmount } = render(<ApiTokensSection me={me.userId} everyone={false} />);
    const own = await screen.findByRole('list', { name: 'Your API tokens' });
    expect(within(own).getAllByRole('listitem')).toHaveLength(1);
    expect(itemNamed(own, 'ana script')).toBeInTheDocument();
    unmount();

    me = ada;
    render(<ApiTokensSection me={ada.userId} everyone />);
    const all = await screen.findByRole('list', { name: "Everyone's API tokens" });
    const bensItem = itemNamed(all, 'ben script');
    expect(bensItem).toHaveTextContent('Ben');
    await act(() => userEvent.click(within(bensItem).getByRole('button', { name: 'Revoke ben script' })));
    await waitFor(() => expect(within(bensItem).getByText('Revoked')).toBeInTheDocument());
    const revoked = await server.request('/__console/tasks', {
      headers: { authorization: `Bearer ${bens.token}` },
    });
    expect(revoked.status).toBe(401);
  });
});
