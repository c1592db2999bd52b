// One task in full: a shareable page (/tasks/<id>) for support staff and creators alike.
import { usePageTitle } from '@/components/ui/core/page-title';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect, useMemo, useState } from 'react';
import { LazyPart } from '@/components/ui/core/lazy-part';
import { Link } from 'wouter';
import { Spinner } from '@/components/ui/core/button';
import { cardClass } from '@/components/ui/styles';
import { formatDateTime } from '@/features/tasks/shared/format';
import { applyRecordedTask } from '@/features/tasks/history/history';
import { inferTaskKind } from '@/features/tasks/shared/lookup';
import { TaskStatusLine } from '@/features/tasks/shared/status-badge';
import { RequestFiles } from './request-files';
import { LookupProblem, TaskTiming } from '@/features/tasks/shared/task-timing';
import { loadRecordActions, TaskActions } from './task-detail-actions';
import { TaskFields } from './task-fields';
import { DetailMedia } from './detail-media';
import { ResultHome } from '@/features/tasks/shared/result-home';
import { TaskTimeline } from './task-timeline';
import { viewOf } from '@/features/tasks/shared/task-view';
import { overlayLocal } from '@/features/tasks/team/team-merge';
import { fetchTaskDetail, teamKeys, type TaskDetail, type TeamTask } from '@/features/tasks/team/team-tasks';
import type { TaskType } from '@/api/core/rules';
import { checkTask } from '@/features/tasks/history/check-task';
import { useHistory } from '@/features/tasks/history/use-history';
import { useTeamFeed } from '@/features/tasks/team/use-team-feed';
import { ReviewBadge } from '@/features/reviews/review-slot';
import { ReviewButton } from '@/features/reviews/review-button';
import { QueryProvider } from '@/api/query/query-client';

/** The Review dialog, loaded when first opened. */
const ReviewDialog = lazy(() => import('@/features/reviews/review-dialog'));

// A task of a request lists its siblings: loaded only for such a task.
const RequestSiblings = lazy(() =>
  import('@/features/tasks/requests/request-siblings').then((m) => ({ default: m.RequestSiblings })),
);
// The request's inputs as media: only a task with a team record has them (an unknown id, the page
// a mistyped link opens, needs none of it).
const RequestInputs = lazy(() =>
  import('@/features/tasks/requests/request-inputs').then((m) => ({ default: m.RequestInputs })),
);

function Json({ value }: { value: unknown }) {
  return (
    <pre
      className="max-h-96 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100"
      tabIndex={0}
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

const BackLink = () => (
  <Link
    href="/tasks"
    className="inline-flex min-h-6 items-center text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
  >
    ← All tasks
  </Link>
);

/** How long the page waits for both copies of a task before it shows whichever it has. */
const BOTH_COPIES_WAIT_MS = 1_500;

/** True once `ms` have passed since `key` was first shown. */
function useWaited(key: string, ms: number): boolean {
  const [waitedFor, setWaitedFor] = useState<string>();
  useEffect(() => {
    const timer = setTimeout(() => setWaitedFor(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return waitedFor === key;
}

/** With its own provider of the shared query client: TanStack Query loads with this screen, not the shell. */
export function TaskDetailScreen({ taskId }: { taskId: string }) {
  return (
    <QueryProvider>
      <TaskDetailScreenContent taskId={taskId} />
    </QueryProvider>
  );
}

function TaskDetailScreenContent({ taskId }: { taskId: string }) {
  const { loaded, tasks } = useHistory();
  const local = useMemo(() => tasks.find((task) => task.id === taskId), [tasks, taskId]);
  const reruns = useMemo(() => tasks.filter((task) => task.rerunOf === taskId), [tasks, taskId]);
  // The team's record: parameters, creator, timeline; live through the event stream.
  const server = useQuery({
    queryKey: teamKeys.detail(taskId),
    queryFn: ({ signal }) => fetchTaskDetail(taskId, signal),
    retry: 1,
  });
  useTeamFeed(undefined);
  const detail = server.data ?? undefined;
  const settled = server.isSuccess || server.isError;
  const unknown = useLookupOfUnrecorded(taskId, { settled, recorded: Boolean(detail), kind: local?.kind });
  const record: TeamTask | undefined = detail
    ? overlayLocal(detail.task, local)
    : (local ?? (unknown?.id === taskId ? unknown : undefined));
  // This browser's own copy of a task it made follows the record (the forms' tiles read it).
  useEffect(() => {
    if (detail && local) void applyRecordedTask(detail.task);
  }, [detail, local]);
  usePageTitle((record ? viewOf(record).heading : undefined) ?? `Task ${taskId}`);

  // Neither copy may hold the page for ever: offline, the record's query pauses until the network
  // is back; a stalled request or an IndexedDB that never opens would too. Past a moment the page
  // shows what it has.
  const waitedLong = useWaited(taskId, BOTH_COPIES_WAIT_MS);
  const inRecord = Boolean(detail);
  const actionsIn = useRecordActionsLoaded(inRecord);
  const bothCopiesIn = (loaded && (settled || server.isPaused) && (!inRecord || actionsIn)) || waitedLong;
  // A task the record does not have shows only its id while the server asks the service about it:
  // painting this browser's copy now would push the page down when the answer lands.
  const awaitingLookup = settled && !detail && unknown?.id !== taskId && !(waitedLong && local);

  // The page is painted once both copies are in: this browser's history (a newer status, its own
  // actions) and the team's record (the request, so Re-run; when and how it was created). Either
  // landing over the other would move the page, and neither always comes first. The record's
  // answer, or its failure, takes a moment; until then the page shows only the id.
  if (!record || awaitingLookup || !bothCopiesIn) {
    return (
      <div className="space-y-4">
        <BackLink />
        <h1 className="text-2xl font-semibold tracking-tight break-all">Task {taskId}</h1>
        <div role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <Spinner /> Looking up the task…
        </div>
      </div>
    );
  }

  const view = viewOf(record);
  const noMedia = view.tone === 'failed' || view.tone === 'not_found';
  return (
    <div className="space-y-5">
      <BackLink />
      <TaskHeading record={record} view={view} detail={detail} />
      <TaskActions record={record} view={view} inHistory={Boolean(local)} inRecord={inRecord} />
      <TaskNotices record={record} view={view} />
      <div className={`grid gap-5 ${noMedia ? '' : 'lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]'}`}>
        {/* A failed or unknown task has no result; the notice above says why. */}
        {!noMedia && <DetailMedia record={record} view={view} inRecord={inRecord} />}
        <section aria-labelledby="fields-heading" className={`${cardClass} p-4`}>
          <h2 id="fields-heading" className="mb-1 font-semibold">
            Details
          </h2>
          <TaskFields record={record} view={view} reruns={reruns} />
        </section>
      </div>

      {record.params != null && (
        <LazyPart>
          <RequestInputs record={record} />
        </LazyPart>
      )}

      {/* Its space is held while the request is read, so what is below does not move. */}
      {record.requestId && (
        <div className="min-h-16">
          <LazyPart>
            <RequestSiblings requestId={record.requestId} taskId={record.id} />
          </LazyPart>
        </div>
      )}
      <RequestFiles files={record.files} />
      {record.params !== undefined && (
        <section aria-labelledby="params-heading" className="space-y-2">
          <h2 id="params-heading" className="font-semibold">
            Request parameters
          </h2>
          <Json value={record.params} />
        </section>
      )}
      {detail ? (
        <TaskTimeline task={detail.task} events={detail.events} />
      ) : (
        settled && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {server.isError
              ? `The team's record could not be read (${server.error.message}); showing this browser's copy.`
              : "The team's record has no entry for this task yet; it gets one when the service answers a lookup."}
          </p>
        )
      )}
      <LastResponse record={record} />
    </div>
  );
}

/**
 * A task the record does not know (a link to an id from elsewhere): the server asks the service
 * once, and records it when the service knows it; the server then follows it like any task. An id
 * the service does not know is recorded nowhere: what is returned says why, for the page to show.
 */
function useLookupOfUnrecorded(
  taskId: string,
  { settled, recorded, kind }: { settled: boolean; recorded: boolean; kind?: TaskType },
): TeamTask | undefined {
  const [unknown, setUnknown] = useState<TeamTask>();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!settled || recorded || !taskId.trim() || unknown?.id === taskId) return;
    const asKind = kind ?? inferTaskKind(taskId);
    let current = true;
    void checkTask(taskId, asKind).then((checked) => {
      if (!current) return;
      if ('found' in checked) {
        queryClient.setQueryData(teamKeys.detail(taskId), checked.found);
        return;
      }
      const now = Date.now();
      setUnknown({
        id: taskId,
        kind: asKind,
        source: 'lookup',
        status: '',
        createdAt: now,
        updatedAt: now,
        lastError: checked.error,
      });
    });
    return () => {
      current = false;
    };
  }, [settled, recorded, taskId, queryClient, unknown, kind]);
  return unknown;
}

/**
 * A task of the team's record has Star, Add to board and More like this: their code is in before
 * the page is painted (./task-detail-actions.tsx). True once it is (or failed to load).
 */
function useRecordActionsLoaded(inRecord: boolean): boolean {
  const [actionsIn, setActionsIn] = useState(false);
  useEffect(() => {
    if (!inRecord) return;
    let live = true;
    const done = () => live && setActionsIn(true);
    void loadRecordActions().then(done, done);
    return () => {
      live = false;
    };
  }, [inRecord]);
  return actionsIn;
}

function TaskHeading({
  record,
  view,
  detail,
}: {
  record: TeamTask;
  view: ReturnType<typeof viewOf>;
  detail: TaskDetail | undefined;
}) {
  return (
    <div className="space-y-2">
      <TaskStatusLine record={record} view={view}>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          <TaskTiming record={record} running={view.tone === 'running'} />
        </span>
        <ResultHome record={record} />
        {detail && (
          <>
            <ReviewBadge reviews={[detail.task.review]} />
            <ReviewButton
              dialog={ReviewDialog}
              taskId={record.id}
              what={view.heading ?? record.id}
              review={detail.task.review}
              className="border border-zinc-300 bg-white shadow-xs dark:border-zinc-700 dark:bg-zinc-900"
            />
          </>
        )}
      </TaskStatusLine>
      {view.heading ? (
        <>
          <h1 className="text-xl font-semibold tracking-tight break-words sm:text-2xl">{view.heading}</h1>
          <p className="font-mono text-sm break-all text-zinc-600 select-all dark:text-zinc-400">
            {record.id}
          </p>
        </>
      ) : (
        <h1 className="font-mono text-xl font-semibold tracking-tight break-all sm:text-2xl">{record.id}</h1>
      )}
    </div>
  );
}

/** Why a task has no result, or why its status could not be refreshed. */
function TaskNotices({ record, view }: { record: TeamTask; view: ReturnType<typeof viewOf> }) {
  return (
    <>
      {view.tone === 'failed' && (
        <div
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-950 dark:border-red-900 dark:bg-red-950/60 dark:text-red-50"
        >
          <p className="font-semibold">The task failed</p>
          <p className="mt-1 break-words whitespace-pre-wrap">
            {view.errorMessage ?? 'The service reported FAILED without an error message.'}
          </p>
        </div>
      )}
      {record.lastError && view.tone !== 'failed' && (
        <div className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-50">
          {view.stale ? (
            <p>
              <span className="font-semibold">Could not refresh the status</span>
              {record.lastError.httpStatus ? ` (HTTP ${record.lastError.httpStatus})` : ''}:{' '}
              {record.lastError.msg}. Showing the last known state
              {record.lastCheckedAt ? ` from ${formatDateTime(record.lastCheckedAt)}` : ''}; checking again
              automatically.
            </p>
          ) : (
            <>
              {view.tone === 'not_found' && <p className="mb-1 font-semibold">Task not found</p>}
              <LookupProblem record={record} />
            </>
          )}
        </div>
      )}
    </>
  );
}

function LastResponse({ record }: { record: TeamTask }) {
  return (
    <section aria-labelledby="raw-heading" className="space-y-2">
      <h2 id="raw-heading" className="font-semibold">
        Last response
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The <code>data</code> of the last status answer or callback, as received
        {record.lastError ? ', and the last failed request' : ''}.
      </p>
      <Json
        value={
          record.lastError
            ? { data: record.result ?? null, lastError: record.lastError }
            : (record.result ?? null)
        }
      />
    </section>
  );
}
