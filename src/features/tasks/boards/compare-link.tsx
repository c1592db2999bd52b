// "Compare" for a selection: two to four results side by side (/compare?ids=…, its screen
// loads on the way there). With one, or five and more, selected the button is off and says why.
import { Link } from 'wouter';
import { COMPARE_MAX, COMPARE_MIN } from './compare-rules';

export function CompareLink({ ids }: { ids: readonly string[] }) {
  const fits = ids.length >= COMPARE_MIN && ids.length <= COMPARE_MAX;
  const reason = `Choose ${COMPARE_MIN} to ${COMPARE_MAX} results to compare (${ids.length} selected)`;
  const look =
    'inline-flex items-center gap-1.5 rounded-lg border px-2.5 py-1.5 text-sm font-medium whitespace-nowrap';
  if (!fits)
    return (
      <span className="inline-flex items-center gap-2">
        <button
          type="button"
          disabled
          aria-describedby="compare-reason"
          className={`${look} cursor-not-allowed border-zinc-200 bg-white text-zinc-400 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-500`}
        >
          Compare
        </button>
        <span id="compare-reason" className="text-xs text-zinc-600 dark:text-zinc-400">
          {reason}
        </span>
      </span>
    );
  return (
    <Link
      href={`/compare?${new URLSearchParams({ ids: ids.join(',') })}`}
      className={`${look} border-zinc-300 bg-white text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800`}
    >
      Compare {ids.length}
    </Link>
  );
}
