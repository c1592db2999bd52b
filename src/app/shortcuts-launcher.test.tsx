// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { KeyboardShortcuts } from './shortcuts-launcher';
import { isTypingTarget } from '@/components/ui/typing-target';
import { emulateModalDialogs } from '@/testing/modal-dialog';

beforeAll(() => emulateModalDialogs());

afterEach(cleanup);

function setup(path = '/') {
  const memory = memoryLocation({ path, record: true });
  const user = userEvent.setup();
  render(
    <Router hook={memory.hook}>
      <KeyboardShortcuts />
      <input aria-label="Prompt" />
    </Router>,
  );
  return { memory, user };
}

describe('keyboard shortcuts', () => {
  it('opens the help dialog with ? and lists the screen shortcuts', async () => {
    const { user } = setup();
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveTextContent('Go to Tasks');
    expect(dialog).toHaveTextContent('Show keyboard shortcuts');
    for (const text of ['Search tasks (on Tasks)', 'Next card (on Tasks)', 'Previous card (on Tasks)'])
      expect(dialog).toHaveTextContent(text);
    expect(dialog).toHaveTextContent('Next image (in an opened result image)');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists Ctrl/⌘+Enter to submit the form, as keys pressed together', async () => {
    const { user } = setup();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    // Each row is a term (what it does) followed by its definition (the keys).
    const terms = within(dialog).getAllByRole('term');
    const row = terms.findIndex((term) => term.textContent === 'Submit the form');
    expect(row).toBeGreaterThan(-1);
    const keys = within(dialog).getAllByRole('definition')[row];
    expect(keys).toHaveTextContent(/^(Ctrl|⌘)\+Enter$/);
    expect(dialog).toHaveTextContent(/(Ctrl|⌘)\+Enter works in a form’s fields too/);
  });

  it('opens from the header button too', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('goes to a screen with g then a letter', async () => {
    const { user, memory } = setup();
    await user.keyboard('gk');
    expect(memory.history?.at(-1)).toBe('/tasks');
    await user.keyboard('gt');
    expect(memory.history?.at(-1)).toBe('/translate');
    await user.keyboard('gc');
    expect(memory.history?.at(-1)).toBe('/callbacks');
    await user.keyboard('gi');
    expect(memory.history?.at(-1)).toBe('/');
    await user.keyboard('gv');
    expect(memory.history?.at(-1)).toBe('/image-to-video');
    await user.keyboard('gn');
    expect(memory.history?.at(-1)).toBe('/insights');
    await user.keyboard('gp');
    expect(memory.history?.at(-1)).toBe('/people');
  });

  it('ignores keys typed in a field', async () => {
    const { user, memory } = setup('/tasks');
    await user.click(screen.getByLabelText('Prompt'));
    await user.keyboard('?gi');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(memory.history).toEqual(['/tasks']);
  });

  it('needs the letter right after g', async () => {
    const { user, memory } = setup('/tasks');
    await user.keyboard('gxk');
    expect(memory.history).toEqual(['/tasks']);
  });

  it('treats text fields, not buttons or checkboxes, as typing targets', () => {
    const text = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    expect(isTypingTarget(text)).toBe(true);
    expect(isTypingTarget(document.createElement('textarea'))).toBe(true);
    expect(isTypingTarget(checkbox)).toBe(false);
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
  });
});
