// A search the server stopped at its time limit (`cutShort`): it says how far back it looked and
// lets the person go on, a page at a time. Going on by itself would walk a million tasks for a
// search nobody is waiting for any more.
import { Button, Spinner } from '@/components/ui/core/button';

/** When the cursor's task was created: cursors are `<created_at ms>.<id>`. */
function lookedBackTo(cursor: string): string | undefined {
  const at = Number(cursor.slice(0, cursor.indexOf('.')));
  if (!Number.isFinite(at) || at <= 0) return undefined;
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function SearchCutShort({
  cursor,
  found,
  loading,
  onMore,
}: {
  cursor: string;
  /** Matches shown so far. */
  found: number;
  loading: boolean;
  onMore: () => void;
}) {
  const since = lookedBackTo(cursor);
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 px-6 py-8 text-center text-sm dark:border-zinc-700">
      <p className="font-medium">
        {found ? `${found.toLocaleString()} found so far` : 'No matches so far'}
        {since ? ` among tasks created since ${since}.` : '.'}
      </p>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        The search stopped there to keep this screen quick; older tasks have not been searched yet.
      </p>
      <Button className="mt-3" size="sm" disabled={loading} onClick={onMore}>
        {loading && <Spinner />} Search older tasks
      </Button>
    </div>
  );
}
