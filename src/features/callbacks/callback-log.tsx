import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Button } from '@/components/ui/core/button';
import { cardClass, inputClass } from '@/components/ui/styles';
import { CallbackItem } from './callback-item';
import { callbackLogQuery } from './inbox/inbox-api';

function countLabel(total: number, task: string) {
  if (task)
    return total === 0
      ? 'No callback for this task id'
      : total === 1
        ? '1 match'
        : `${total} matches, newest first`;
  return total === 0 ? 'None yet' : total === 1 ? '1 callback' : `${total} callbacks, newest first`;
}

export function CallbackLog({ inboxPath }: { inboxPath: string }) {
  const [filter, setFilter] = useState('');
  const task = useDeferredValue(filter.trim());
  const query = useInfiniteQuery({ ...callbackLogQuery(inboxPath, task), placeholderData: keepPreviousData });
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  const searchId = useId();

  return (
    <section aria-labelledby="callback-log-title" className={cardClass}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-zinc-200 px-4 py-3 sm:px-5 dark:border-zinc-800">
        <div className="min-w-0">
          <h2 id="callback-log-title" className="text-base font-semibold">
            Received callbacks
          </h2>
          {query.isSuccess && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
              {countLabel(total, task)}
            </p>
          )}
        </div>
        <div className="w-full sm:w-56">
          <label htmlFor={searchId} className="sr-only">
            Find a task id
          </label>
          <input
            id={searchId}
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Find a task id"
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} py-1.5 font-mono text-xs`}
          />
        </div>
      </div>
      {query.isPending && (
        <p role="status" className="px-5 py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">
          Loading the callback log…
        </p>
      )}
      {query.isError && (
        <div role="alert" className="px-5 py-8 text-center text-sm">
          <p className="font-medium text-red-700 dark:text-red-400">The callback log could not be loaded.</p>
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">
            {query.error.msg || query.error.explanation}
          </p>
          <Button className="mt-3" size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {query.isSuccess && entries.length === 0 && task && (
        <p className="px-5 py-12 text-center text-sm text-zinc-600 dark:text-zinc-400">
          No stored callback has a task id containing <code className="font-mono">{task}</code>.
        </p>
      )}
      {query.isSuccess && entries.length === 0 && !task && (
        <div className="px-5 py-12 text-center">
          <p className="font-medium text-zinc-800 dark:text-zinc-200">No callbacks received yet</p>
          <p className="mx-auto mt-1 max-w-md text-sm text-zinc-600 dark:text-zinc-400">
            When a task created with this console's callback URL finishes, the service's callback appears here
            at once.
          </p>
        </div>
      )}
      {entries.length > 0 && (
        <ol
          aria-label="Callbacks, newest first"
          aria-busy={query.isPlaceholderData || undefined}
          className={`divide-y divide-zinc-200 transition-opacity dark:divide-zinc-800 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          {entries.map((entry) => (
            <CallbackItem key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <div className="border-t border-zinc-200 px-5 py-3 text-center dark:border-zinc-800">
          <Button size="sm" pending={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? 'Loading older callbacks…' : 'Show older callbacks'}
          </Button>
        </div>
      )}
    </section>
  );
}
