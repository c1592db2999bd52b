// @vitest-environment jsdom
import { createRef } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/errors';
import { ErrorBanner } from './banner';
import { Button } from './core/button';
import { CopyButton } from './copy-button';
import { Field } from './field';
import { Switch } from './switch';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Field', () => {
  it('names the control by its label and describes it by error first, then hint', () => {
    render(
      <Field label="Prompt" hint="Describe it" error="Too long">
        {(props) => <input {...props} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Prompt' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Too long Describe it');
  });

  it('is not invalid without an error', () => {
    render(<Field label="Name">{(props) => <input {...props} />}</Field>);
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid');
  });
});

describe('Button', () => {
  it('is busy and disabled while pending', () => {
    render(<Button pending>Sending…</Button>);
    const button = screen.getByRole('button', { name: 'Sending…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });
});

describe('Switch', () => {
  it('is a switch named by its label and described by its one-liner', async () => {
    const onChange = vi.fn();
    render(
      <Switch
        label="Generate captions"
        description="Adds a caption file"
        checked={false}
        onChange={onChange}
      />,
    );
    const control = screen.getByRole('switch', { name: 'Generate captions' });
    expect(control).toHaveAttribute('aria-checked', 'false');
    expect(control).toHaveAccessibleDescription('Adds a caption file');
    await userEvent.click(control);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('hands its button to a ref (react-hook-form focuses the field with it)', () => {
    const ref = createRef<HTMLButtonElement>();
    render(<Switch ref={ref} label="Audio" description="Adds sound" checked onChange={() => undefined} />);
    expect(ref.current).toBe(screen.getByRole('switch', { name: 'Audio' }));
  });
});

describe('ErrorBanner', () => {
  it('shows the code, the service msg verbatim and what to do', () => {
    render(
      <ErrorBanner
        error={
          new ApiError({ kind: 'task_creation', httpStatus: 200, code: 530003, msg: 'create task failed' })
        }
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The task could not be created');
    expect(alert).toHaveTextContent('Code 530003 · HTTP 200');
    expect(alert).toHaveTextContent('The service said: create task failed');
    expect(alert).toHaveTextContent('What to do: The service could not create the task.');
  });
});

describe('CopyButton', () => {
  it('copies the text and announces it', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<CopyButton text="curl …" label="Copy as cURL" />);
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Copy as cURL' })));
    expect(writeText).toHaveBeenCalledWith('curl …');
    expect(screen.getByRole('status')).toHaveTextContent('Copied to the clipboard');
  });
});
