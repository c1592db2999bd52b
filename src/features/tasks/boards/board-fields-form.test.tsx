// @vitest-environment jsdom
// A board's name and description form (making one on Boards, changing one on its page): checked by
// the server's rule before anything is sent, exactly at the bound and one past it; the server's
// refusal under the field it names.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOARD_NAME_MAX } from '@/api/boards';
import { BoardFieldsForm, type BoardFields } from './board-fields-form';

afterEach(cleanup);

function renderForm(send: (fields: BoardFields) => Promise<unknown>, onSaved = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BoardFieldsForm
        label="New board"
        submitLabel="Create board"
        send={send}
        onSaved={onSaved}
        onCancel={vi.fn()}
      />
    </QueryClientProvider>,
  );
  return onSaved;
}

const nameBox = () => screen.getByRole('textbox', { name: 'Name' });
const descriptionBox = () => screen.getByRole('textbox', { name: /Description/ });
// Typing a long name key by key is slow on a busy machine; the value is what matters here.
const setName = (value: string) => fireEvent.change(nameBox(), { target: { value } });

describe('BoardFieldsForm', () => {
  it('sends nothing without a name, and says so beside the field', async () => {
    const send = vi.fn(async () => ({}));
    renderForm(send);
    await userEvent.click(screen.getByRole('button', { name: 'Create board' }));
    expect(nameBox()).toHaveAttribute('aria-invalid', 'true');
    expect(nameBox()).toHaveAccessibleDescription('Give the board a name');
    expect(send).not.toHaveBeenCalled();
  });

  it('takes a name of exactly the most characters and refuses one more', async () => {
    const send = vi.fn(async (fields: BoardFields) => fields);
    const onSaved = renderForm(send);
    setName('x'.repeat(BOARD_NAME_MAX + 1));
    await userEvent.click(screen.getByRole('button', { name: 'Create board' }));
    expect(nameBox()).toHaveAccessibleDescription(`A board's name is at most ${BOARD_NAME_MAX} characters`);
    expect(send).not.toHaveBeenCalled();
    setName('x'.repeat(BOARD_NAME_MAX));
    await userEvent.click(screen.getByRole('button', { name: 'Create board' }));
    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith({ name: 'x'.repeat(BOARD_NAME_MAX), description: '' }),
    );
    expect(nameBox()).toHaveAccessibleDescription(`Up to ${BOARD_NAME_MAX} characters.`);
  });

  it('shows the server’s refusal under the field it names', async () => {
    const send = vi.fn(async () => {
      throw Object.assign(new Error('The description cannot hold that'), { field: 'description' });
    });
    const onSaved = renderForm(send);
    setName('Picks');
    await userEvent.click(screen.getByRole('button', { name: 'Create board' }));
    await waitFor(() =>
      expect(descriptionBox()).toHaveAccessibleDescription('The description cannot hold that'),
    );
    expect(descriptionBox()).toHaveAttribute('aria-invalid', 'true');
    expect(nameBox()).not.toHaveAttribute('aria-invalid');
    expect(onSaved).not.toHaveBeenCalled();
  });
});
