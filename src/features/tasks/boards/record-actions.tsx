// What a result of the team's record offers on its own page (a task's page): Star, Add to board and
// More like this, and the board picker the lightbox asks for. One chunk, loaded only once the page
// knows the record holds the task: the page of an id the record lacks carries none of it.
import { StarButton } from '@/features/tasks/shared/stars';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { AddToBoardButton, AddToBoardHost } from './add-to-board';
import { MoreLikeThisButton } from './more-like-this';

export function RecordActions({ record, what }: { record: TeamTask; what: string }) {
  return (
    <>
      <StarButton
        ids={[record.id]}
        what={what}
        label
        className="rounded-lg border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900"
      />
      <AddToBoardButton
        ids={[record.id]}
        what={what}
        className="rounded-lg border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900 px-2.5"
      />
      <MoreLikeThisButton source={record} />
      <AddToBoardHost />
    </>
  );
}
