// "Try again" on a failed tile of a form's request (./request-tiles.tsx, which loads this with its
// first failed tile): the same parameters, for one task (one image, one video, the one language),
// recorded as this browser's newest request, so it heads the recent ones. The re-run's code loads
// on the press.
import { useState } from 'react';
import { Link } from 'wouter';
import { useMyName } from '@/api/my-name';
import type { TaskRecord } from '@/features/tasks/history/task-record';

const actionClass =
  'inline-flex min-h-7 items-center justify-center gap-1 rounded-md border border-zinc-200 bg-white px-2 py-1 text-center text-xs font-medium text-indigo-700 hover:border-indigo-300 hover:bg-indigo-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-indigo-300 dark:hover:border-indigo-700 dark:hover:bg-indigo-950';

export function TryAgain({ record, label }: { record: TaskRecord; label: string }) {
  const viewer = useMyName().role === 'viewer';
  const [state, setState] = useState<{ pending?: boolean; error?: string; made?: string }>({});
  if (viewer) return null;
  const retry = async () => {
    setState({ pending: true });
    try {
      const [{ rerunTask }, { retryParams }] = await Promise.all([
        import('@/features/tasks/list/rerun'),
        import('@/features/tasks/rerun/rerun-params'),
      ]);
      const [made] = await rerunTask(record, retryParams(record));
      setState({ made: made?.id });
    } catch (error) {
      setState({ error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <>
      <button
        type="button"
        className={actionClass}
        aria-label={`Try ${label} again`}
        aria-busy={state.pending || undefined}
        disabled={state.pending}
        onClick={() => void retry()}
      >
        {state.pending ? 'Trying again…' : 'Try again'}
      </button>
      {(state.error || state.made) && (
        <p role="status" className="col-span-full text-xs text-zinc-700 dark:text-zinc-300">
          {state.error ? (
            <span className="text-red-800 dark:text-red-200">{state.error}</span>
          ) : (
            <>
              Sent again as{' '}
              <Link
                href={`/tasks/${encodeURIComponent(state.made!)}`}
                className="font-mono break-all text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
              >
                {state.made}
              </Link>
            </>
          )}
        </p>
      )}
    </>
  );
}
