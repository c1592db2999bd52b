// The board picker: the team's boards (searchable), each a button that adds the results to it, and
// a new board made with them. A native modal <dialog>: it stacks above the lightbox when opened
// from there. What the server refuses (a full board, a name too long) is said by the field.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { BOARD_NAME_MAX } from '@/api/boards';
import { checkBoardFields } from '@/api/boards';
import { Button } from '@/components/ui/core/button';
import { addToBoard, BOARDS_KEY, BoardError, boardsKey, createBoard, fetchBoards } from './boards-api';
import { ModalDialog } from '@/components/ui/modal-dialog';

export function AddToBoardDialog({
  ids,
  what,
  onClose,
}: {
  ids: readonly string[];
  what: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const client = useQueryClient();
  const [q, setQ] = useState('');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [added, setAdded] = useState<{ id: string; name: string }>();
  const id = useId();
  const boards = useQuery({
    queryKey: boardsKey(q.trim()),
    queryFn: ({ signal }) => fetchBoards(q.trim(), signal),
  });
  const done = (board: { id: string; name: string }) => {
    setAdded(board);
    void client.invalidateQueries({ queryKey: BOARDS_KEY });
  };
  const add = useMutation({
    mutationFn: async (board: { id: string; name: string }) => {
      await addToBoard(board.id, ids);
      return board;
    },
    onSuccess: done,
  });
  const make = useMutation({
    mutationFn: () => createBoard({ name, ids }),
    onSuccess: done,
    onError: (error) => setNameError(error.message),
  });
  const submitNew = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkBoardFields({ name });
    if ('field' in checked) return setNameError(checked.msg);
    setNameError(undefined);
    make.mutate();
  };
  const count = ids.length === 1 ? what : `${ids.length} results`;
  return (
    <ModalDialog title="Add to a board" subtitle={count} dialogRef={ref} onClose={onClose}>
      {added ? (
        <p
          role="status"
          className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        >
          Added to{' '}
          <Link
            href={`/boards/${encodeURIComponent(added.id)}`}
            className="font-semibold underline"
            onClick={() => ref.current?.close()}
          >
            {added.name}
          </Link>
          .
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-q`} className="text-sm font-medium">
          Search boards
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={q}
          maxLength={200}
          onChange={(event) => setQ(event.target.value)}
          className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
        />
      </div>
      <ul aria-label="Boards" className="max-h-64 space-y-1 overflow-y-auto">
        {boards.isPending && <li className="text-sm text-zinc-500">Loading the boards…</li>}
        {boards.isError && (
          <li role="alert" className="text-sm text-red-700 dark:text-red-300">
            The boards could not be read ({boards.error.message}).
          </li>
        )}
        {boards.data?.length === 0 && (
          <li className="text-sm text-zinc-600 dark:text-zinc-400">
            {q ? 'No board matches.' : 'No boards yet: make the first below.'}
          </li>
        )}
        {boards.data?.map((board) => (
          <li key={board.id}>
            <button
              type="button"
              disabled={add.isPending}
              onClick={() => add.mutate({ id: board.id, name: board.name })}
              className="flex w-full items-center justify-between gap-3 rounded-lg border border-zinc-200 px-3 py-2 text-left text-sm hover:border-indigo-400 hover:bg-indigo-50 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-indigo-950"
            >
              <span className="min-w-0 truncate font-medium">
                <span className="sr-only">Add to </span>
                {board.name}
              </span>
              <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">
                {board.itemCount} results
              </span>
            </button>
          </li>
        ))}
      </ul>
      {add.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {add.error instanceof BoardError ? add.error.message : 'The board could not be changed.'}
        </p>
      )}
      <form
        onSubmit={submitNew}
        noValidate
        className="space-y-2 border-t border-zinc-200 pt-4 dark:border-zinc-800"
      >
        <label htmlFor={`${id}-name`} className="text-sm font-medium">
          New board name
        </label>
        <div className="flex gap-2">
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            className="min-w-0 flex-1 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
          <Button type="submit" variant="primary" pending={make.isPending}>
            Create and add
          </Button>
        </div>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Up to {BOARD_NAME_MAX} characters.</p>
        {nameError && (
          <p id={`${id}-name-error`} className="text-sm text-red-700 dark:text-red-300">
            {nameError}
          </p>
        )}
      </form>
    </ModalDialog>
  );
}
