// A board's page (/boards/<id>): its results in the board's order as a grid, each opening
// large in the lightbox; Download all (one zip named after the board); Compare two to four chosen;
// for creators: rename and describe, reorder (earlier / later), choose the cover, remove, More like
// this, delete (the maker or an admin). Live: a change made on any instance reads the board again.
import { usePageTitle } from '@/components/ui/core/page-title';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useMyName } from '@/api/my-name';
import { Button, Spinner } from '@/components/ui/core/button';
import { StarButton } from '@/features/tasks/shared/stars';
import { PageOrPresentation } from './page-or-presentation';
import { viewOf } from '@/features/tasks/shared/task-view';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { StatusBadge } from '@/features/tasks/shared/status-badge';
import { ReviewBadge } from '@/features/reviews/review-slot';
import { ReviewButton } from '@/features/reviews/review-button';

import { AddToBoardHost, useCanChangeBoards } from './add-to-board';
import {
  BOARDS_KEY,
  boardKey,
  boardZip,
  changeBoard,
  deleteBoard,
  fetchBoard,
  removeFromBoard,
  reorderBoard,
  useBoardsFeed,
  type Board,
} from './boards-api';
import { ResultPicture } from './board-cover';
import { CompareLink } from './compare-link';
import { MoreLikeThisButton } from './more-like-this';
import { ShareButton } from '@/features/shares/share-button';
import { BoardFieldsForm } from './board-fields-form';

// The presentation (`?present`) loads only when asked for.
const BoardPresentation = lazy(() =>
  import('./board-present').then((m) => ({ default: m.BoardPresentation })),
);

/** The Review dialog, loaded when first opened. */
const ReviewDialog = lazy(() => import('@/features/reviews/review-dialog'));

export function BoardScreen({ boardId }: { boardId: string }) {
  const present = new URLSearchParams(useSearch()).has('present');
  return (
    <PageOrPresentation
      present={present}
      page={<BoardScreenContent boardId={boardId} />}
      presentation={<BoardPresentation boardId={boardId} />}
    />
  );
}

const SMALL =
  'inline-flex min-h-8 items-center rounded-md px-2 text-xs font-medium text-zinc-700 hover:bg-zinc-100 disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-800';

function EditBoardForm({ board, onDone }: { board: Board; onDone: () => void }) {
  return (
    <BoardFieldsForm
      label="Edit the board"
      submitLabel="Save"
      initial={{ name: board.name, description: board.description ?? '' }}
      send={({ name, description }) =>
        changeBoard(board.id, { name, description: description.trim() ? description : null })
      }
      onSaved={onDone}
      onCancel={onDone}
    />
  );
}

function BoardItem({
  board,
  task,
  index,
  count,
  selected,
  onSelect,
  onMove,
  onRemove,
  onCover,
  busy,
  can,
}: {
  board: Board;
  task: TeamTask;
  index: number;
  count: number;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
  onCover: () => void;
  busy: boolean;
  can: boolean;
}) {
  const view = viewOf(task);
  const what = view.heading ?? task.id;
  const headingId = `item-${task.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`flex h-full flex-col overflow-hidden rounded-xl border bg-white shadow-xs dark:bg-zinc-900 ${selected ? 'border-indigo-500 ring-2 ring-indigo-500' : 'border-zinc-200 dark:border-zinc-800'}`}
    >
      <div className="relative aspect-square overflow-hidden bg-zinc-100 dark:bg-zinc-800">
        <ResultPicture task={task} zoom className="size-full object-contain" />
        <label className="absolute top-2 left-2 z-10 flex size-9 cursor-pointer items-center justify-center rounded-lg bg-white/90 shadow-sm ring-1 ring-zinc-300 dark:bg-zinc-900/90 dark:ring-zinc-700">
          <input
            type="checkbox"
            aria-label={`Select ${what}`}
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
            className="size-5 cursor-pointer accent-indigo-600"
          />
        </label>
        {board.coverTaskId === task.id && (
          <span className="absolute top-2 right-2 rounded-md bg-zinc-900/85 px-2 py-1 text-xs font-semibold text-white">
            Cover
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="flex items-start justify-between gap-2">
          <h2 id={headingId} className="min-w-0 text-sm font-medium">
            <Link
              href={`/tasks/${encodeURIComponent(task.id)}`}
              className="line-clamp-2 break-words hover:text-indigo-700 hover:underline dark:hover:text-indigo-300"
            >
              {what}
            </Link>
          </h2>
          <StarButton ids={[task.id]} what={what} className="-mt-1 -mr-1 shrink-0" />
        </div>
        {view.tone !== 'succeeded' && <StatusBadge tone={view.tone} label={view.label} />}
        <div className="flex flex-col items-start gap-1.5 sm:flex-row sm:justify-between sm:gap-2">
          <ReviewBadge reviews={[task.review]} />
          <ReviewButton
            dialog={ReviewDialog}
            taskId={task.id}
            what={what}
            review={task.review}
            className="shrink-0 border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
        {can && (
          <div className="mt-auto flex flex-wrap items-center gap-0.5 border-t border-zinc-100 pt-2 dark:border-zinc-800">
            <button
              type="button"
              className={SMALL}
              disabled={busy || index === 0}
              aria-label={`Move ${what} earlier`}
              onClick={() => onMove(-1)}
            >
              ← Earlier
            </button>
            <button
              type="button"
              className={SMALL}
              disabled={busy || index === count - 1}
              aria-label={`Move ${what} later`}
              onClick={() => onMove(1)}
            >
              Later →
            </button>
            {board.coverTaskId !== task.id && (
              <button
                type="button"
                className={SMALL}
                disabled={busy}
                onClick={onCover}
                aria-label={`Make ${what} the cover`}
              >
                Make cover
              </button>
            )}
            <button
              type="button"
              className={`${SMALL} text-red-700 dark:text-red-400`}
              disabled={busy}
              aria-label={`Remove ${what} from the board`}
              onClick={onRemove}
            >
              Remove
            </button>
            <MoreLikeThisButton source={task} compact />
          </div>
        )}
      </div>
    </article>
  );
}

function BoardScreenContent({ boardId }: { boardId: string }) {
  useBoardsFeed();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const can = useCanChangeBoards();
  const me = useMyName();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const query = useQuery({
    queryKey: boardKey(boardId),
    queryFn: ({ signal }) => fetchBoard(boardId, signal),
  });
  const data = query.data ?? undefined;
  const heading = data?.board.name ?? 'Board';
  usePageTitle(heading);
  const refresh = () => void client.invalidateQueries({ queryKey: BOARDS_KEY });
  const change = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSettled: refresh });
  const remove = useMutation({
    mutationFn: () => deleteBoard(boardId),
    onSuccess: () => {
      refresh();
      navigate('/boards');
    },
  });

  if (query.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <Spinner /> Loading the board…
      </p>
    );
  if (query.isError)
    return (
      <p role="alert" className="text-sm text-red-800 dark:text-red-200">
        The board could not be read ({query.error.message}).
      </p>
    );
  if (!data)
    return (
      <div className="space-y-3">
        <h1 className="text-xl font-semibold">No such board</h1>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">It may have been deleted.</p>
        <Link
          href="/boards"
          className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          ← All boards
        </Link>
      </div>
    );
  const { board, items } = data;
  const ids = items.map((task) => task.id);
  const chosen = ids.filter((id) => selected.has(id));
  const mayDelete = can && (board.createdById === me.id || me.role === 'admin' || !me.role);
  const move = (index: number, step: -1 | 1) => {
    const order = [...ids];
    const [moved] = order.splice(index, 1);
    order.splice(index + step, 0, moved!);
    change.mutate(() => reorderBoard(board.id, order));
  };

  return (
    <div className="space-y-5">
      <Link
        href="/boards"
        className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        ← All boards
      </Link>
      <AddToBoardHost />
      {editing ? (
        <EditBoardForm board={board} onDone={() => setEditing(false)} />
      ) : (
        <header className="space-y-1">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Board · {board.itemCount} {board.itemCount === 1 ? 'result' : 'results'}
            {board.createdBy && ` · made by ${board.createdBy}`}
          </p>
          <h1 className="text-xl font-semibold tracking-tight break-words sm:text-2xl">{board.name}</h1>
          {board.description && (
            <p className="max-w-3xl text-sm break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">
              {board.description}
            </p>
          )}
        </header>
      )}
      <div
        role="toolbar"
        aria-label="Board actions"
        className="flex flex-wrap items-center gap-2 rounded-xl border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {items.length > 0 && (
          <a
            href={boardZip(board.id)}
            download
            className="inline-flex items-center gap-1.5 rounded-lg bg-indigo-600 px-2.5 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-indigo-700"
          >
            Download all
          </a>
        )}
        {items.length > 0 && (
          <Link
            href={`/boards/${encodeURIComponent(board.id)}?present`}
            className="inline-flex min-h-8 items-center rounded-lg px-2.5 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Present
          </Link>
        )}
        <ShareButton target={{ board: board.id }} what={board.name} />
        {chosen.length > 0 ? (
          <>
            <span className="text-sm font-medium" aria-live="polite">
              {chosen.length} selected
            </span>
            <CompareLink ids={chosen} />
            {can && (
              <Button
                size="sm"
                variant="danger"
                disabled={change.isPending}
                onClick={() => {
                  change.mutate(() => removeFromBoard(board.id, chosen));
                  setSelected(new Set());
                }}
              >
                Remove selected
              </Button>
            )}
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              Clear
            </Button>
          </>
        ) : (
          items.length > 1 && (
            <span className="text-sm text-zinc-600 dark:text-zinc-400">
              Select two to four results to compare them.
            </span>
          )
        )}
        <span className="flex-1" />
        {can && !editing && (
          <Button size="sm" onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
        {mayDelete &&
          (confirmDelete ? (
            <span role="group" aria-label="Delete the board" className="inline-flex items-center gap-1">
              <span className="text-sm">Delete “{board.name}”? The results stay on Tasks.</span>
              <Button size="sm" variant="danger" pending={remove.isPending} onClick={() => remove.mutate()}>
                Delete board
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(false)}>
                Keep it
              </Button>
            </span>
          ) : (
            <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete…
            </Button>
          ))}
      </div>
      {!can && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          You can view and download this board; creators change it.
        </p>
      )}
      {(change.isError || remove.isError) && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {(change.error ?? remove.error)?.message}
        </p>
      )}
      {items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          This board is empty. Add results from Tasks, a task&apos;s page or a request&apos;s page, or choose
          this board on a form before generating.
        </p>
      ) : (
        <ul
          aria-label="Results on this board"
          data-lightbox-scope=""
          className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4"
        >
          {items.map((task, index) => (
            <li key={task.id}>
              <BoardItem
                board={board}
                task={task}
                index={index}
                count={items.length}
                selected={selected.has(task.id)}
                onSelect={(on) =>
                  setSelected((before) => {
                    const next = new Set(before);
                    if (on) next.add(task.id);
                    else next.delete(task.id);
                    return next;
                  })
                }
                onMove={(step) => move(index, step)}
                onRemove={() => change.mutate(() => removeFromBoard(board.id, [task.id]))}
                onCover={() => change.mutate(() => changeBoard(board.id, { coverTaskId: task.id }))}
                busy={change.isPending}
                can={can}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
