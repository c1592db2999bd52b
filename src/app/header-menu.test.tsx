// @vitest-environment jsdom
// Support (Callbacks) per role: in the header for viewers (support staff who read), admins and a
// console without roles, never in the creators' Main navigation; the phone's menu as a disclosure.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Role } from '@/api/roles';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { HeaderMenu } from './header-menu';
import { Layout } from './layout';

afterEach(cleanup);

function renderAs(role: Role | undefined, ui = <Layout>content</Layout>) {
  const info = testConsoleInfo(role ? { user: { id: 'u1', name: 'Sam Doe', role, source: 'local' } } : {});
  const memory = memoryLocation({ path: '/', record: true });
  render(withConsoleInfo(info, <Router hook={memory.hook}>{ui}</Router>));
  return memory;
}

/** Both navigations, the desktop row's and the menu's (jsdom applies no breakpoints). */
const navs = (name: string) => screen.queryAllByRole('navigation', { name, hidden: true });

describe('Support in the header', () => {
  it.each([['viewer'], ['admin'], [undefined]] as const)('is shown to %s', (role) => {
    renderAs(role);
    const support = navs('Support');
    expect(support.length).toBeGreaterThan(0);
    for (const nav of support)
      expect(within(nav).getByRole('link', { name: 'Callbacks', hidden: true })).toHaveAttribute(
        'href',
        '/callbacks',
      );
  });

  it('is not shown to a creator', () => {
    renderAs('creator');
    expect(navs('Support')).toHaveLength(0);
  });

  it('holds People for an admin, and for nobody else', () => {
    renderAs('admin');
    for (const nav of navs('Support'))
      expect(within(nav).getByRole('link', { name: 'People', hidden: true })).toHaveAttribute(
        'href',
        '/people',
      );
    cleanup();
    renderAs('viewer');
    for (const nav of navs('Support'))
      expect(within(nav).queryByRole('link', { name: 'People', hidden: true })).toBeNull();
  });

  it.each([['viewer'], ['creator'], ['admin']] as const)(
    'the Main navigation of %s has no Callbacks',
    (role) => {
      renderAs(role);
      const main = navs('Main');
      expect(main.length).toBeGreaterThan(0);
      for (const nav of main) {
        const names = within(nav)
          .getAllByRole('link', { hidden: true })
          .map((link) => link.textContent);
        expect(names).toEqual([
          'Create image',
          'Translate video',
          'Image to video',
          'Tasks',
          'Boards',
          'Insights',
        ]);
      }
    },
  );
});

describe('the phone menu', () => {
  it('is a disclosure: closed, opened with focus on its first link, closed by Escape onto its button', async () => {
    renderAs('viewer', <HeaderMenu />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel).toBeVisible();
    expect(within(panel).getByRole('link', { name: 'Create image' })).toHaveFocus();
    expect(panel).toHaveTextContent('Signed in as Sam Doe');
    expect(panel).toHaveTextContent('Viewer');
    expect(within(panel).getByRole('navigation', { name: 'Support' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    expect(panel).not.toBeVisible();
  });

  it('closes when a link is chosen', async () => {
    const memory = renderAs('creator', <HeaderMenu />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('link', { name: 'Tasks' }));
    expect(memory.history?.at(-1)).toBe('/tasks');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
