// @vitest-environment jsdom
// Admins add, see and remove webhooks on the People screen, against the real Node side: a bad
// address is said next to its field and what was typed stays; the signing secret is shown once.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testNodeApp } from '../../../server/testing/test-node-app';
import { WebhooksSection } from './webhooks-section';

const server = testNodeApp('webhooks-section');

beforeEach(async () => {
  await server.open();
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => server.request(input, init));
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await server.close();
});
afterAll(server.remove);

describe('Webhooks', () => {
  it('adds one for the team, shows its secret once, lists it and removes it', async () => {
    const user = userEvent.setup();
    render(<WebhooksSection admin />);
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    expect(await within(section).findByText('No webhooks yet.')).toBeVisible();
    await user.type(within(section).getByLabelText('Name'), 'Team chat');
    await user.type(within(section).getByLabelText('Address'), 'ftp://chat.example.com/hook');
    await user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    expect(await within(section).findByText('An http:// or https:// address')).toBeVisible();
    expect(within(section).getByLabelText('Address')).toHaveValue('ftp://chat.example.com/hook');
    await user.clear(within(section).getByLabelText('Address'));
    await user.type(within(section).getByLabelText('Address'), 'https://chat.example.com/hook');
    await user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    const shown = await within(section).findByRole('status');
    expect(shown).toHaveTextContent(/Team chat added\. Its signing secret, shown this once:\s*whsec_/);
    const list = within(section).getByRole('list', { name: 'Webhooks' });
    expect(within(list).getByText('https://chat.example.com/hook')).toBeVisible();
    expect(list).toHaveTextContent('Every request of the team');
    expect(await within(list).findByText('Nothing sent yet')).toBeVisible();
    await user.click(within(list).getByRole('button', { name: 'Remove Team chat' }));
    expect(await within(section).findByText('No webhooks yet.')).toBeVisible();
  });
});
