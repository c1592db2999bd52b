// Stars: the results I starred, one set per person on the server (server/boards/stars.ts).
// Every star button reads the same query; a toggle shows at once (optimistic) and is undone if the
// server refuses. The lightbox (plain DOM) stars through the same route and says so with a window
// event, and the boards' event stream says when my stars changed elsewhere: both read the set again.
import { QueryClientContext, useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useCallback, useEffect, useState } from 'react';
import { readStars, sendStars } from './stars-api';

export const STARS_KEY = ['stars'] as const;
/** Sent on window when something outside React (the lightbox) changed my stars. */
export const STARS_CHANGED_EVENT = 'console:stars-changed';

export function useStars() {
  const client = useQueryClient();
  useEffect(() => {
    const again = () => void client.invalidateQueries({ queryKey: STARS_KEY });
    window.addEventListener(STARS_CHANGED_EVENT, again);
    return () => window.removeEventListener(STARS_CHANGED_EVENT, again);
  }, [client]);
  return useQuery({ queryKey: STARS_KEY, queryFn: ({ signal }) => readStars(signal), staleTime: 30_000 });
}

/**
 * Stars or unstars, shown at once (the cached set changes first) and put back if the server
 * refuses; then read again. A plain function rather than useMutation: the Tasks screen's first
 * load carries no mutation code for it.
 */
export function useToggleStars() {
  const client = useQueryClient();
  const [error, setError] = useState<string>();
  const toggle = useCallback(
    async (ids: readonly string[], starred: boolean) => {
      await client.cancelQueries({ queryKey: STARS_KEY });
      const before = client.getQueryData<ReadonlySet<string>>(STARS_KEY);
      const next = new Set(before);
      for (const id of ids) {
        if (starred) next.add(id);
        else next.delete(id);
      }
      client.setQueryData(STARS_KEY, next);
      setError(undefined);
      try {
        await sendStars(ids, starred);
      } catch (refused) {
        client.setQueryData(STARS_KEY, before);
        setError((refused as Error).message);
      }
      void client.invalidateQueries({ queryKey: STARS_KEY });
    },
    [client],
  );
  return { toggle, error };
}

/**
 * A star toggle for one result or a request's results (starred when all are): a button with
 * aria-pressed, named "Star <what>" for screen readers; `label` shows the word beside the star.
 */
interface StarButtonProps {
  ids: readonly string[];
  what: string;
  label?: boolean;
  className?: string;
}

export function StarButton(props: StarButtonProps) {
  // Only where the team's record is read (a screen with its query client): a card drawn elsewhere
  // (a component test, a panel without the record) has no stars to show.
  if (!use(QueryClientContext) || !props.ids.length) return null;
  return <RecordStarButton {...props} />;
}

function RecordStarButton({ ids, what, label = false, className = '' }: StarButtonProps) {
  const stars = useStars().data;
  const toggle = useToggleStars();
  const starred = Boolean(stars) && ids.every((id) => stars!.has(id));
  return (
    <span className={`inline-flex items-center ${className}`}>
      <button
        type="button"
        aria-pressed={starred}
        aria-label={label ? undefined : `Star ${what}`}
        title={starred ? `Starred: press to unstar ${what}` : `Star ${what}`}
        onClick={() => void toggle.toggle(ids, !starred)}
        className={`inline-flex min-h-8 min-w-8 items-center justify-center gap-1 rounded-lg px-1.5 text-sm font-medium transition-colors hover:bg-amber-50 dark:hover:bg-amber-950/50 ${starred ? 'text-amber-500 dark:text-amber-400' : 'text-zinc-500 hover:text-amber-600 dark:text-zinc-400'}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
          <path
            d="M10 1.8l2.47 5.3 5.8.7-4.28 3.98 1.1 5.74L10 14.67l-5.09 2.85 1.1-5.74L1.73 7.8l5.8-.7z"
            fill={starred ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinejoin="round"
          />
        </svg>
        {label && (starred ? 'Starred' : 'Star')}
      </button>
      {toggle.error && (
        <span role="alert" className="ml-1 text-xs text-red-700 dark:text-red-300">
          {toggle.error}
        </span>
      )}
    </span>
  );
}
