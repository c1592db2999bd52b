// Boards (/boards): the team's collections of results, most recently changed first, found
// by a search of their names and descriptions; creators make a new one here. Live: a board made or
// changed on any instance shows at once (./boards-api.ts's stream). Loaded when first visited.
import { usePageTitle } from '@/components/ui/core/page-title';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { QueryProvider } from '@/api/query/query-client';
import { Button, Spinner } from '@/components/ui/core/button';
import { formatAgo } from '@/features/tasks/shared/format';
import { useNow } from '@/features/tasks/shared/use-now';
import { useCanChangeBoards } from './add-to-board';
import { boardsKey, createBoard, fetchBoards, type Board } from './boards-api';
import { useBoardsFeed } from './boards-api';
import { ResultPicture } from './board-cover';
import { BOARD_INPUT, BoardFieldsForm } from './board-fields-form';

export function BoardsScreen() {
  return (
    <QueryProvider>
      <BoardsScreenContent />
    </QueryProvider>
  );
}

function NewBoardForm({ onDone }: { onDone: () => void }) {
  const [, navigate] = useLocation();
  return (
    <BoardFieldsForm
      label="New board"
      submitLabel="Create board"
      send={createBoard}
      onSaved={(board) => navigate(`/boards/${encodeURIComponent(board.id)}`)}
      onCancel={onDone}
    />
  );
}

function BoardCard({ board }: { board: Board }) {
  const now = useNow(true, 30_000);
  const headingId = `board-${board.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="aspect-video overflow-hidden bg-zinc-100 dark:bg-zinc-800">
        <ResultPicture task={board.cover} />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h2 id={headingId} className="min-w-0 text-base font-semibold">
          <Link
            href={`/boards/${encodeURIComponent(board.id)}`}
            className="line-clamp-2 break-words text-zinc-900 hover:text-indigo-700 hover:underline dark:text-zinc-100 dark:hover:text-indigo-300"
          >
            {board.name}
          </Link>
        </h2>
        {board.description && (
          <p className="line-clamp-2 text-sm break-words text-zinc-600 dark:text-zinc-400">
            {board.description}
          </p>
        )}
        <p className="mt-auto pt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {board.itemCount} {board.itemCount === 1 ? 'result' : 'results'}
          {board.createdBy && ` · by ${board.createdBy}`} · changed {formatAgo(board.updatedAt, now)}
        </p>
      </div>
    </article>
  );
}

function BoardsScreenContent() {
  useBoardsFeed();
  const can = useCanChangeBoards();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [creating, setCreating] = useState(false);
  // The search is asked for once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  usePageTitle('Boards');
  const boards = useQuery({ queryKey: boardsKey(q), queryFn: ({ signal }) => fetchBoards(q, signal) });
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Boards</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            The team&apos;s collections of results. Changes made anywhere show here as they happen.
          </p>
        </div>
        {can && !creating && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New board
          </Button>
        )}
      </div>
      {creating && <NewBoardForm onDone={() => setCreating(false)} />}
      <div className="max-w-sm">
        <label htmlFor="boards-search" className="sr-only">
          Search boards
        </label>
        <input
          id="boards-search"
          type="search"
          placeholder="Search boards"
          value={search}
          maxLength={200}
          onChange={(event) => setSearch(event.target.value)}
          className={BOARD_INPUT}
        />
      </div>
      {boards.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <Spinner /> Loading the boards…
        </p>
      ) : boards.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          The boards could not be read ({boards.error.message}).
        </p>
      ) : boards.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {q
            ? `No board's name or description contains “${q}”.`
            : can
              ? 'No boards yet. Make one here, or add results to a new board from Tasks.'
              : 'No boards yet: a creator makes them.'}
        </p>
      ) : (
        <ul
          aria-label="Boards"
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
        >
          {boards.data.map((board) => (
            <li key={board.id}>
              <BoardCard board={board} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
