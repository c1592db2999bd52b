import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { ErrorText, LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { useLocation } from 'wouter';
import { API_PATHS, toCurl } from '@/api/paths';
import { Button } from '@/components/ui/core/button';
import { CopyButton } from '@/components/ui/copy-button';
import { applyRecordedTask, removeTasks } from '@/features/tasks/history/history';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { AnimateLink } from '@/features/tasks/shared/animate-link';
// Star, Add to board, More like this: only for a task the team's record holds. Loaded by
// the page once the record answers that it holds the task, and the page is painted after it (as it
// waits for both copies of the task), so the buttons never arrive under the reader's eyes; the page
// of an id the record lacks never loads them.
type RecordActionsComponent = typeof import('@/features/tasks/boards/record-actions').RecordActions;
let RecordActions: RecordActionsComponent | undefined;
export const loadRecordActions = (): Promise<void> =>
  import('@/features/tasks/boards/record-actions').then((m) => {
    RecordActions = m.RecordActions;
  });
import { downloadName, extensionOf } from '@/api/download-name';
import { downloadSubject, type TaskView } from '@/features/tasks/shared/task-view';
import { isTerminalStatus } from '@/api/status';
import { useResultExpired } from '@/features/tasks/shared/result-expiry';
import { useMyName, type MyName } from '@/api/my-name';
import { needsRole } from '@/api/roles';
import { teamKeys, type TeamTask } from '@/features/tasks/team/team-tasks';
import { checkTask } from '@/features/tasks/history/check-task';
import { useFocusBackOnCancel } from '@/features/tasks/rerun/focus-after-cancel';

// What re-running needs (the endpoints, the question before it) loads when the button is pointed
// at or pressed.
const rerunModule = () => import('@/features/tasks/list/rerun');
const confirmModule = () => import('@/features/tasks/rerun/rerun-confirm');
const TaskRerunConfirm = lazy(() => confirmModule().then((m) => ({ default: m.TaskRerunConfirm })));
const loadRerun = () => {
  void rerunModule();
  void confirmModule();
};
const ErrorBanner = lazy(() => import('@/components/ui/banner').then((m) => ({ default: m.ErrorBanner })));

function canRerun(record: TaskRecord): boolean {
  return Boolean(record.params && typeof record.params === 'object');
}

/**
 * Whose task it is, when it is not mine: a re-run of it is a new request in my name, so the button
 * asks first. Decided by the verified id; a name typed before sign-in was verified compares by name.
 */
function otherCreator(record: TeamTask, me: MyName): string | undefined {
  if (record.creatorId) return record.creatorId === me.id ? undefined : (record.creator ?? 'someone else');
  return record.creator && record.creator !== me.name ? record.creator : undefined;
}

const STATUS_PATH = {
  image_to_video: API_PATHS.imageToVideoTask,
  image_generate: API_PATHS.imageGenerateTask,
  video_translate: API_PATHS.videoTranslateTask,
} as const;

export function statusCurl(record: TaskRecord) {
  return toCurl('GET', STATUS_PATH[record.kind](record.id));
}

// The Python and JavaScript snippets' code loads when their button is pointed at, focused or pressed.
const snippetsModule = () => import('@/api/code-snippets');

/** The same status query for a script: Python or JavaScript (src/api/code-snippets.ts). */
export async function statusSnippet(record: TaskRecord, language: 'python' | 'javascript') {
  const { toJavaScript, toPython } = await snippetsModule();
  return (language === 'python' ? toPython : toJavaScript)('GET', STATUS_PATH[record.kind](record.id));
}

const loadSnippets = () => void snippetsModule();

export function TaskActions({
  record,
  view,
  inHistory = true,
  inRecord = false,
}: {
  record: TeamTask;
  view: TaskView;
  /** Whether this browser's history holds the task (only then can it be removed from it). */
  inHistory?: boolean;
  /** Whether the team's record holds it: then files download from this console, named by it. */
  inRecord?: boolean;
}) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [confirmRerun, setConfirmRerun] = useState(false);
  const { trigger, cancelled } = useFocusBackOnCancel();
  const me = useMyName();
  const viewer = me.role === 'viewer';
  const owner = otherCreator(record, me);
  const rerun = useMutation({
    mutationFn: async () => (await rerunModule()).rerunTask(record),
    onSuccess: (created) => {
      if (created[0]) navigate(`/tasks/${encodeURIComponent(created[0].id)}`);
    },
  });
  // The server asks the service now and answers with the record; the page and this browser's copy take it.
  const check = useMutation({
    mutationFn: async () => {
      const checked = await checkTask(record.id, record.kind);
      if ('error' in checked) throw new Error(checked.error.msg);
      queryClient.setQueryData(teamKeys.detail(record.id), checked.found);
      await applyRecordedTask(checked.found.task);
    },
  });

  // Past ~7 days the links lead nowhere: no download buttons then.
  const expired = useResultExpired(record);
  const media = expired
    ? undefined
    : record.kind === 'image_generate'
      ? (view.image.url ?? view.thumbnail.url)
      : view.video.url;
  const named = downloadSubject(record, view);
  const base = `/__console/tasks/${encodeURIComponent(record.id)}/download`;
  const mediaName = media
    ? downloadName(named, extensionOf(media) ?? (record.kind === 'image_generate' ? 'png' : 'mp4'))
    : undefined;
  const captionName = downloadName(named, extensionOf(view.caption.url) ?? 'ass');
  // The server follows every unfinished task; support may have it asked now, whatever its state.
  const canCheck = !isTerminalStatus(record.status);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <CopyButton text={record.id} label="Copy task id" size="sm" />
        <CopyButton
          text={`${location.origin}/tasks/${encodeURIComponent(record.id)}`}
          label="Copy link"
          size="sm"
        />
        <CopyButton text={statusCurl(record)} label="Copy as cURL" size="sm" />
        {(['python', 'javascript'] as const).map((language) => (
          <CopyButton
            key={language}
            text={() => statusSnippet(record, language)}
            label={language === 'python' ? 'Copy as Python' : 'Copy as JavaScript'}
            size="sm"
            onPointerEnter={loadSnippets}
            onFocus={loadSnippets}
          />
        ))}
        {media && (
          <a
            href={inRecord ? `${base}/result` : media}
            download={mediaName}
            {...(!inRecord && { target: '_blank', rel: 'noopener noreferrer' })}
            className="inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Download {record.kind === 'image_generate' ? 'image' : 'video'}
          </a>
        )}
        {view.caption.url && !expired && (
          <a
            href={inRecord ? `${base}/captions` : view.caption.url}
            download={captionName}
            {...(!inRecord && { target: '_blank', rel: 'noopener noreferrer' })}
            className="inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Download captions
          </a>
        )}
        <AnimateLink record={record} view={view} />
        {inRecord && RecordActions && <RecordActions record={record} what={view.heading ?? record.id} />}
        {canRerun(record) &&
          (confirmRerun ? (
            <LazyPart failed={<PartFailed what="The re-run's question" />}>
              <TaskRerunConfirm
                record={record}
                owner={owner}
                pending={rerun.isPending}
                onRerun={() => rerun.mutate()}
                onCancel={() => {
                  rerun.reset();
                  cancelled();
                  setConfirmRerun(false);
                }}
              />
            </LazyPart>
          ) : (
            <Button
              ref={trigger}
              size="sm"
              onClick={() => setConfirmRerun(true)}
              onPointerEnter={loadRerun}
              onFocus={loadRerun}
              disabled={viewer}
              aria-describedby={viewer ? 'rerun-viewer-reason' : undefined}
            >
              Re-run…
            </Button>
          ))}
        {canCheck && (
          <Button size="sm" onClick={() => check.mutate()} pending={check.isPending}>
            Check again
          </Button>
        )}
        {check.error && (
          <span role="status" className="self-center text-sm text-red-800 dark:text-red-300">
            {check.error.message}
          </span>
        )}
        {!inHistory ? null : confirmRemove ? (
          <span className="inline-flex items-center gap-1">
            <Button
              size="sm"
              variant="danger"
              className="ring-1 ring-red-300 dark:ring-red-800"
              onClick={() => void removeTasks([record.id]).then(() => navigate('/tasks'))}
            >
              Remove from history
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirmRemove(false)}>
              Cancel
            </Button>
          </span>
        ) : (
          <Button size="sm" variant="danger" onClick={() => setConfirmRemove(true)}>
            Remove…
          </Button>
        )}
      </div>
      {viewer && canRerun(record) && (
        <p id="rerun-viewer-reason" className="text-xs text-zinc-600 dark:text-zinc-400">
          {needsRole('creator', 're-run or animate tasks')}
        </p>
      )}
      {rerun.error && (
        <LazyPart failed={<ErrorText error={rerun.error} />}>
          <ErrorBanner error={rerun.error} onDismiss={() => rerun.reset()} />
        </LazyPart>
      )}
    </div>
  );
}
