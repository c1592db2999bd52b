// "Save to board" beside a creation form's submit button: which board the results land
// on (src/api/board-choice.ts sends it with the creation). The button says the current choice; the
// picker, with the team's boards, loads when it is pressed, so a form's first load carries only this.
import { lazy, useState } from 'react';
import { creationBoard, setCreationBoard, type ChosenBoard } from '@/api/board-choice';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';

const BoardPicker = lazy(() => import('./board-picker').then((m) => ({ default: m.BoardPicker })));

export function BoardChoice() {
  const [board, setBoard] = useState<ChosenBoard | undefined>(creationBoard);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className="max-w-60 truncate rounded-lg px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
      >
        {board ? `Saves to board: ${board.name}` : 'Save to a board…'}
      </button>
      {open && (
        <LazyPart failed={<PartFailed what="The boards" />}>
          <BoardPicker
            current={board}
            onChoose={(chosen) => {
              setCreationBoard(chosen);
              setBoard(chosen);
            }}
            onClose={() => setOpen(false)}
          />
        </LazyPart>
      )}
    </>
  );
}
