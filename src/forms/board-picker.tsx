// The board a creation's results go to: the team's boards in a list to choose from (or none). A
// native modal <dialog>; loaded when "Save to a board…" is first pressed (./board-choice.tsx).
import { useEffect, useRef, useState } from 'react';
import type { ChosenBoard } from '@/api/board-choice';
import { Button } from '@/components/ui/core/button';
import { listBoardChoices } from './board-choices-api';

type Loaded = { boards: ChosenBoard[] } | { error: string } | undefined;

export function BoardPicker({
  current,
  onChoose,
  onClose,
}: {
  current: ChosenBoard | undefined;
  onChoose: (board: ChosenBoard | undefined) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [loaded, setLoaded] = useState<Loaded>();
  const [value, setValue] = useState(current?.id ?? '');
  useEffect(() => {
    ref.current?.showModal();
    const controller = new AbortController();
    listBoardChoices(controller.signal)
      .then((boards) => setLoaded({ boards }))
      .catch((error: Error) => {
        if (!controller.signal.aborted) setLoaded({ error: error.message });
      });
    return () => controller.abort();
  }, []);
  const boards = loaded && 'boards' in loaded ? loaded.boards : [];
  // A board chosen earlier and deleted since is no choice any more.
  const gone = Boolean(current && loaded && 'boards' in loaded && !boards.some((b) => b.id === current.id));
  const save = () => {
    onChoose(boards.find((board) => board.id === value));
    ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      aria-labelledby="board-picker-title"
      onClose={onClose}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="space-y-4 p-5">
        <h2 id="board-picker-title" className="text-lg font-semibold">
          Save the results to a board
        </h2>
        <div>
          <label htmlFor="board-picker-select" className="text-sm font-medium">
            Board
          </label>
          <select
            id="board-picker-select"
            value={gone ? '' : value}
            disabled={!loaded || 'error' in loaded}
            onChange={(event) => setValue(event.target.value)}
            className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          >
            <option value="">No board</option>
            {boards.map((board) => (
              <option key={board.id} value={board.id}>
                {board.name}
              </option>
            ))}
          </select>
          {!loaded && <p className="mt-1 text-xs text-zinc-500">Loading the boards…</p>}
          {loaded && 'error' in loaded && (
            <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
              The boards could not be read ({loaded.error}).
            </p>
          )}
          {gone && <p className="mt-1 text-xs text-zinc-600">“{current!.name}” was deleted.</p>}
          <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
            Each result of your next requests is added to it as it is created, until you choose another.
          </p>
        </div>
        <div className="flex justify-end gap-2">
          <Button onClick={() => ref.current?.close()}>Cancel</Button>
          <Button variant="primary" onClick={save} disabled={!loaded || 'error' in loaded}>
            Done
          </Button>
        </div>
      </div>
    </dialog>
  );
}
