// @vitest-environment jsdom
// The Tasks screen's keys (./tasks-keys.ts, ./card-keys.ts) on the real plain grid and task cards:
// `/` focuses the search, `j` / `k` move between the cards' title links and Enter opens one; none
// of them while typing, with a modifier, with a dialog open or when the shell took the key; a card
// the virtualised grid has not drawn is asked for and focused once drawn.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { REVEAL_CARD } from './card-keys';
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';
import { PANEL_ID } from './task-filters';
import { TaskGrid } from './task-grid';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { useTasksKeys } from './tasks-keys';

const entries: GalleryEntry[] = [1, 2, 3].map((n) => {
  const task = {
    id: `i2is-keys-${n}`,
    kind: 'image_generate',
    status: 'RUNNING',
    source: 'created',
    createdAt: Date.now(),
    updatedAt: Date.now(),
    result: { task_id: `i2is-keys-${n}`, status: 'RUNNING' },
    params: { prompt: `Card ${n}` },
  } as unknown as TeamTask;
  return { key: task.id, task };
});

function Screen({ children }: { children?: React.ReactNode }) {
  useTasksKeys();
  return (
    <>
      <label htmlFor="task-search">Search tasks</label>
      <input id="task-search" type="search" />
      <section id={PANEL_ID}>{children ?? <TaskGrid entries={entries} />}</section>
    </>
  );
}

function setup(children?: React.ReactNode) {
  const memory = memoryLocation({ path: '/tasks', record: true });
  const user = userEvent.setup();
  render(
    <Router hook={memory.hook}>
      <Screen>{children}</Screen>
    </Router>,
  );
  return { memory, user, search: screen.getByRole('searchbox', { name: 'Search tasks' }) };
}

/** The title link of the nth card (1-based), the element `j` and `k` focus. */
const titleLink = (n: number) => screen.getByRole('link', { name: `Card ${n}` });

beforeEach(() => {
  // jsdom lays nothing out.
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

describe('/ on Tasks', () => {
  it('focuses the search box without typing the slash', async () => {
    const { user, search } = setup();
    await user.keyboard('/');
    expect(search).toHaveFocus();
    expect(search).toHaveValue('');
  });

  it('types / j and k into the search box when it has the focus', async () => {
    const { user, search } = setup();
    await user.click(search);
    await user.keyboard('a/jk');
    expect(search).toHaveValue('a/jk');
    expect(search).toHaveFocus();
  });

  it('does nothing with Ctrl, ⌘ or Alt held', async () => {
    const { user, search } = setup();
    await user.keyboard('{Control>}/{/Control}{Meta>}/{/Meta}{Alt>}/{/Alt}');
    expect(search).not.toHaveFocus();
  });
});

describe('j and k on Tasks', () => {
  it('move the focus to the next and previous card’s title link, and Enter opens it', async () => {
    const { memory, user } = setup();
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(1)).toHaveFocus());
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(2)).toHaveFocus());
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(3)).toHaveFocus());
    // Past the last card: stays.
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(3)).toHaveFocus());
    await user.keyboard('k');
    await waitFor(() => expect(titleLink(2)).toHaveFocus());
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledWith({ block: 'nearest' });
    await user.keyboard('{Enter}');
    expect(memory.history?.at(-1)).toBe('/tasks/i2is-keys-2');
  });

  it('go on from the card that has the focus, whichever way it got there', async () => {
    const { user } = setup();
    titleLink(3).focus();
    await user.keyboard('k');
    await waitFor(() => expect(titleLink(2)).toHaveFocus());
  });

  it('are typed, not taken, in the search box', async () => {
    const { user, search } = setup();
    await user.click(search);
    await user.keyboard('j');
    expect(search).toHaveFocus();
    expect(search).toHaveValue('j');
    // Control: outside the box the same key moves to the first card, not the second, so the `j`
    // typed in the box moved nothing.
    search.blur();
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(1)).toHaveFocus());
    expect(search).toHaveValue('j');
  });

  it('do nothing with a modifier held, with a dialog open, or when the shell took the key', async () => {
    const { user, search } = setup();
    search.focus();
    search.blur();
    await user.keyboard('{Control>}j{/Control}{Alt>}j{/Alt}{Meta>}j{/Meta}');
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.append(dialog);
    await user.keyboard('j');
    dialog.remove();
    // `g` then `k` goes to Tasks: the shell's listener (on document) prevents the key's default.
    const shell = (event: KeyboardEvent) => event.preventDefault();
    document.addEventListener('keydown', shell);
    await user.keyboard('k');
    document.removeEventListener('keydown', shell);
    // And then it works, landing on the first card: had any key above moved the focus, this one
    // would have gone on from there.
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(1)).toHaveFocus());
  });

  it('ask the virtualised grid for a card it has not drawn, and focus it once it is', async () => {
    const asked: number[] = [];
    function VirtualList() {
      return (
        <div
          role="list"
          ref={(list) => {
            if (!list) return;
            list.addEventListener(REVEAL_CARD, (event) => {
              asked.push((event as CustomEvent<number>).detail);
              // Drawn a frame later, as the virtualizer would after scrolling.
              requestAnimationFrame(() => {
                const item = document.createElement('div');
                item.setAttribute('role', 'listitem');
                item.setAttribute('aria-posinset', '3');
                item.innerHTML = '<article><h2><a href="/tasks/third">Card 3</a></h2></article>';
                list.append(item);
              });
            });
          }}
        >
          {[1, 2].map((n) => (
            <div key={n} role="listitem" aria-posinset={n} aria-setsize={100}>
              <article>
                <h2>
                  <a href={`/tasks/${n}`}>Card {n}</a>
                </h2>
              </article>
            </div>
          ))}
        </div>
      );
    }
    const { user } = setup(<VirtualList />);
    titleLink(2).focus();
    await user.keyboard('j');
    await waitFor(() => expect(titleLink(3)).toHaveFocus());
    expect(asked).toEqual([2]);
  });
});
