// Every field of a task, labelled, for support staff.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { formatDateTime, formatDuration } from '@/features/tasks/shared/format';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { mediaLink, type MediaLink } from '@/features/tasks/shared/safe-url';
import type { TaskView } from '@/features/tasks/shared/task-view';
import type { TeamTask } from '@/features/tasks/team/team-tasks';

function LinkValue({ link }: { link: MediaLink }) {
  if (link.url) {
    return (
      <a
        href={link.url}
        target="_blank"
        rel="noopener noreferrer"
        className="break-all text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
      >
        {link.url}
      </a>
    );
  }
  if (link.raw) {
    return (
      <span className="break-all">
        <code className="font-mono text-xs">{link.raw}</code>{' '}
        <span className="text-xs text-amber-800 dark:text-amber-200">(not an http(s) link; not opened)</span>
      </span>
    );
  }
  return null;
}

const EXPECTED: Record<TaskRecord['kind'], string[]> = {
  image_to_video: ['Duration', 'Size', 'Video link', 'Thumbnail link'],
  image_generate: ['Image link'],
  video_translate: ['Name', 'Language', 'Video link', 'Caption link'],
};

/** An image-to-video task's start frame, from its request: the picture and its link. */
function StartFrame({ link }: { link: MediaLink }) {
  if (!link.url) return <LinkValue link={link} />;
  return (
    <span className="flex flex-col items-start gap-2">
      <img
        src={link.url}
        alt="Start frame"
        referrerPolicy="no-referrer"
        className="max-h-40 max-w-full rounded-lg border border-zinc-200 object-contain dark:border-zinc-800"
      />
      <LinkValue link={link} />
    </span>
  );
}

const Missing = () => <span className="text-zinc-500 dark:text-zinc-400">—</span>;

export function TaskFields({
  record,
  view,
  reruns,
}: {
  record: TeamTask;
  view: TaskView;
  reruns: readonly TaskRecord[];
}) {
  const params = (record.params ?? {}) as { image_url?: unknown };
  const startFrame = record.kind === 'image_to_video' ? mediaLink(params.image_url) : {};
  const rows: [string, ReactNode][] = [
    ['Task id', <code className="font-mono break-all">{record.id}</code>],
    ['Kind', TASK_TYPE_LABELS[record.kind]],
    [
      'Status',
      record.status ? (
        <code className="font-mono">{record.status}</code>
      ) : view.tone === 'not_found' ? (
        'Not found: the service does not know this task'
      ) : (
        'No answer yet'
      ),
    ],
    [
      'Created',
      `${formatDateTime(record.createdAt)} (${record.source === 'created' ? 'created through the console' : record.source === 'callback' ? 'learned from a callback' : 'looked up'})`,
    ],
    [
      'Created by',
      record.creator &&
        (record.creatorUnverified ? `${record.creator} (unverified: typed before sign-in)` : record.creator),
    ],
    [
      'Finished',
      record.finishedAt
        ? record.source === 'created'
          ? `${formatDateTime(record.finishedAt)} · took ${formatDuration(record.finishedAt - record.createdAt)}`
          : `Seen finished at ${formatDateTime(record.finishedAt)}`
        : null,
    ],
    // A running task's answer says 0 until the service knows: "—" then, not "0 seconds".
    ['Duration', view.durationSeconds ? `${view.durationSeconds} seconds` : null],
    ['Size', view.width && view.height ? `${view.width} × ${view.height} pixels` : null],
    ['Name', view.name],
    ['Language', view.language],
    ['Prompt', view.prompt],
    ['Start frame', startFrame.raw ? <StartFrame link={startFrame} /> : null],
    [
      'Animated from',
      record.animatedFrom ? (
        <Link
          href={`/tasks/${encodeURIComponent(record.animatedFrom)}`}
          className="font-mono break-all text-indigo-700 underline dark:text-indigo-300"
        >
          {record.animatedFrom}
        </Link>
      ) : null,
    ],
    // The service's own links, as it sent them (a kept copy is what the media above show).
    ...(['video', 'image', 'thumbnail', 'caption'] as const).map((role): [string, ReactNode] => {
      const link = mediaLink(record.result?.[`${role}_url`]);
      return [`${role[0]!.toUpperCase()}${role.slice(1)} link`, link.raw ? <LinkValue link={link} /> : null];
    }),
    ['Error message', view.errorMessage ?? (record.status === 'FAILED' ? '(empty)' : null)],
    [
      'Last checked',
      record.lastCheckedAt
        ? `${formatDateTime(record.lastCheckedAt)}${record.lastSource ? ` (by ${record.lastSource})` : ''}`
        : null,
    ],
    [
      'Re-run of',
      record.rerunOf ? (
        <Link
          href={`/tasks/${encodeURIComponent(record.rerunOf)}`}
          className="font-mono text-indigo-700 underline dark:text-indigo-300"
        >
          {record.rerunOf}
        </Link>
      ) : null,
    ],
    [
      'Re-runs',
      reruns.length ? (
        <span className="flex flex-wrap gap-x-3">
          {reruns.map((task) => (
            <Link
              key={task.id}
              href={`/tasks/${encodeURIComponent(task.id)}`}
              className="font-mono text-indigo-700 underline dark:text-indigo-300"
            >
              {task.id}
            </Link>
          ))}
        </span>
      ) : null,
    ],
  ];
  // Fields the kind documents are always listed (a dash says "not given"); others only when present.
  // A task the service does not know has no result fields to expect.
  const expected = view.tone === 'not_found' ? [] : EXPECTED[record.kind];
  const important = new Set(['Task id', 'Kind', 'Status', 'Created', ...expected]);
  return (
    <dl className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {rows
        .filter(([label, value]) => (value !== null && value !== undefined) || important.has(label))
        .map(([label, value]) => (
          <div key={label} className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
            <dt className="font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="min-w-0 break-words text-zinc-900 dark:text-zinc-100">{value ?? <Missing />}</dd>
          </div>
        ))}
    </dl>
  );
}
