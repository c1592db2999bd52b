import { Link } from 'wouter';

const linkClass = 'font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300';

/** An empty list: nothing matches the filters (with a way back), or nobody has made a task yet. */
export function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700">
      {filtered ? (
        <>
          <p className="font-medium">No tasks match these filters.</p>
          <button type="button" onClick={onClear} className={`mt-2 text-sm ${linkClass}`}>
            Show all tasks
          </button>
        </>
      ) : (
        <>
          <p className="font-medium">No tasks yet</p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Tasks the team{' '}
            <Link href="/" className={linkClass}>
              creates
            </Link>{' '}
            or{' '}
            <Link href="/translate" className={linkClass}>
              translates
            </Link>{' '}
            appear here, and so do ids you paste above.
          </p>
        </>
      )}
    </div>
  );
}
