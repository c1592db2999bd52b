// One request (/requests/<id>): what was asked, by whom and when, and each of its tasks as a card,
// followed live. "All tasks →" after a submit opens it; a task page links to it.
import { usePageTitle } from '@/components/ui/core/page-title';
import { lazy, useMemo } from 'react';
import { Link } from 'wouter';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { Spinner } from '@/components/ui/core/button';
import { formatDateTime } from '@/features/tasks/shared/format';
import { TaskCard } from '@/features/tasks/list/task-card';
import { StarButton } from '@/features/tasks/shared/stars';
import { PageOrPresentation } from '@/features/tasks/boards/page-or-presentation';
import { AddToBoardButton, AddToBoardHost } from '@/features/tasks/boards/add-to-board';
import { overlayLocal } from '@/features/tasks/team/team-merge';
import type { TeamRequest } from '@/features/tasks/team/team-tasks';
import { useHistory } from '@/features/tasks/history/use-history';
import { RequestActions } from './request-actions';
import { RequestParams } from './request-params';
import { useRequest } from './use-request';
import { useTeamFeed } from '@/features/tasks/team/use-team-feed';
import { ShareButton } from '@/features/shares/share-button';

export type { TeamRequest };

// The presentation view (/requests/<id>/present) loads only when asked for; its lazy import lives
// here rather than in the app's routes, which every screen downloads.
const RequestPresentation = lazy(() =>
  import('./request-present-screen').then((m) => ({ default: m.RequestPresentContent })),
);

export function RequestScreen({ requestId, present = false }: { requestId: string; present?: boolean }) {
  return (
    <PageOrPresentation
      present={present}
      page={<RequestScreenContent requestId={requestId} />}
      presentation={<RequestPresentation requestId={requestId} />}
    />
  );
}

function RequestScreenContent({ requestId }: { requestId: string }) {
  const request = useRequest(requestId);
  useTeamFeed(undefined);
  const { tasks: history } = useHistory();
  const data = request.data ?? undefined;
  const heading = data?.title ?? `Request ${requestId}`;
  usePageTitle(heading);
  // What it sent: its first task's copy (as the record keeps it), else the request's own.
  const params = useMemo(() => {
    const sent = data?.tasks[0]?.params ?? data?.params;
    return sent && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Record<string, unknown>) : {};
  }, [data]);
  const tasks = useMemo(() => {
    const local = new Map(history.map((record) => [record.id, record]));
    return (data?.tasks ?? []).map((task) => overlayLocal(task, local.get(task.id)));
  }, [data, history]);

  return (
    <div className="space-y-5">
      <Link
        href="/tasks"
        className="inline-flex min-h-6 items-center text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        ← All tasks
      </Link>
      <header className="space-y-1">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {data ? `${TASK_TYPE_LABELS[data.kind]} request` : 'Request'}
          {data && ` · ${data.tasks.length} ${data.tasks.length === 1 ? 'task' : 'tasks'}`}
        </p>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="min-w-0 text-xl font-semibold tracking-tight break-words sm:text-2xl">{heading}</h1>
          {data && data.tasks.some((task) => task.status === 'SUCCEEDED') && (
            <Link
              href={`/requests/${encodeURIComponent(requestId)}/present`}
              className="shrink-0 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
            >
              Present
            </Link>
          )}
        </div>
        {data && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            <time dateTime={new Date(data.createdAt).toISOString()}>{formatDateTime(data.createdAt)}</time>
            {data.creator && ` · by ${data.creator}`}
            {data.creator && data.creatorUnverified && ' (unverified: typed before sign-in)'}
            <span className="ml-2 font-mono text-xs select-all">{data.id}</span>
          </p>
        )}
        {data?.parentRequestId && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            More like{' '}
            <Link
              href={`/requests/${encodeURIComponent(data.parentRequestId)}`}
              className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            >
              an earlier request
            </Link>
            , with the same parameters.
          </p>
        )}
        {data && data.tasks.length > 0 && (
          <div className="pt-2">
            <RequestActions request={data} params={params}>
              <ShareButton
                target={{ request: data.id }}
                what={heading}
                className="border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900"
              />
              <StarButton
                ids={data.tasks.map((task) => task.id)}
                what={`every result of ${heading}`}
                label
                className="rounded-lg border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900"
              />
              <AddToBoardButton
                ids={data.tasks.map((task) => task.id)}
                what={heading}
                className="rounded-lg border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900 px-2.5"
              />
            </RequestActions>
          </div>
        )}
      </header>
      <AddToBoardHost />
      {request.isPending ? (
        <div role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <Spinner /> Loading the request…
        </div>
      ) : request.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          The request could not be read ({request.error.message}).
        </p>
      ) : !data ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          The team&apos;s record has no such request.
        </p>
      ) : (
        <>
          <ul
            aria-label="Tasks of this request"
            data-lightbox-scope=""
            className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
          >
            {tasks.map((task) => (
              <li key={task.id}>
                <TaskCard record={task} />
              </li>
            ))}
          </ul>
          <RequestParams params={params} />
          {data.madeAgain && data.madeAgain.length > 0 && (
            <section aria-labelledby="made-again" className="space-y-2">
              <h2 id="made-again" className="text-base font-semibold">
                More like this
              </h2>
              <ul className="space-y-1 text-sm">
                {data.madeAgain.map((again) => (
                  <li key={again.id}>
                    <Link
                      href={`/requests/${encodeURIComponent(again.id)}`}
                      className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      {again.taskCount} more
                    </Link>{' '}
                    <span className="text-zinc-600 dark:text-zinc-400">
                      · {formatDateTime(again.createdAt)}
                      {again.creator && ` · by ${again.creator}`}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
