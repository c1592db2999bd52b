// A board's name and description: the form that makes one (Boards) and the one that changes one
// (a board's page). Checked here by the server's rule (checkBoardFields) before anything is sent;
// the server's refusal shows under the field it names.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BOARD_DESCRIPTION_MAX, BOARD_NAME_MAX, checkBoardFields } from '@/api/boards';
import { Button } from '@/components/ui/core/button';
import { BOARDS_KEY } from './boards-api';

export const BOARD_INPUT =
  'mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm shadow-xs dark:border-zinc-700 dark:bg-zinc-950';

type Key = 'name' | 'description';
export interface BoardFields {
  name: string;
  description: string;
}

export function BoardFieldsForm<T>({
  label,
  submitLabel,
  initial = { name: '', description: '' },
  send,
  onSaved,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  initial?: BoardFields;
  send: (fields: BoardFields) => Promise<T>;
  /** After the boards' list was marked stale. */
  onSaved: (saved: T) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [fields, setFields] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const save = useMutation({
    mutationFn: () => send(fields),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: BOARDS_KEY });
      onSaved(saved);
    },
    onError: (error: Error & { field?: string }) =>
      setErrors({ [error.field === 'description' ? 'description' : 'name']: error.message }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkBoardFields(fields);
    if ('field' in checked) return setErrors({ [checked.field]: checked.msg });
    setErrors({});
    save.mutate();
  };
  const field = (key: Key, bound: number) => {
    const error = errors[key];
    const note = `${id}-${key}-${error ? 'error' : 'hint'}`;
    return {
      control: {
        id: `${id}-${key}`,
        value: fields[key],
        'aria-invalid': error ? true : undefined,
        'aria-describedby': note,
        onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
          setFields((now) => ({ ...now, [key]: event.target.value })),
        className: BOARD_INPUT,
      },
      note: error ? (
        <p id={note} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : (
        <p id={note} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Up to {bound} characters.
        </p>
      ),
    };
  };
  const name = field('name', BOARD_NAME_MAX);
  const description = field('description', BOARD_DESCRIPTION_MAX);
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={label}
      className="space-y-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div>
        <label htmlFor={name.control.id} className="text-sm font-medium">
          Name
        </label>
        <input {...name.control} />
        {name.note}
      </div>
      <div>
        <label htmlFor={description.control.id} className="text-sm font-medium">
          Description <span className="font-normal text-zinc-500">(optional)</span>
        </label>
        <textarea rows={2} {...description.control} />
        {description.note}
      </div>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" pending={save.isPending}>
          {submitLabel}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
