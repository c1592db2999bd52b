// One upload's line: its progress bar (percent and bytes) and Cancel while it runs, or why it
// stopped and what can be done (Retry after a network error, Dismiss).
import { Button } from '@/components/ui/core/button';
import { formatBytes } from './upload-accept';
import type { UploadJob } from './upload-job';
import type { UploadTracker } from './upload-tracker';

function ProgressBar({ job }: { job: UploadJob }) {
  return (
    <div
      role="progressbar"
      aria-label={`Uploading ${job.file.name}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={job.percent}
      aria-valuetext={`${job.percent}%, ${formatBytes(job.loaded)} of ${formatBytes(job.total)}`}
      className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
    >
      <div
        className="h-full rounded-full bg-indigo-600 transition-[width] duration-200 dark:bg-indigo-400"
        style={{ width: `${job.percent}%` }}
      />
    </div>
  );
}

/** One upload: its progress and cancel while it runs, or why it stopped and what can be done. */
export function UploadLine({ job, tracker }: { job: UploadJob; tracker: UploadTracker }) {
  const running = job.state === 'checking' || job.state === 'uploading';
  const name = <span className="min-w-0 truncate font-medium">{job.file.name}</span>;
  if (running) {
    return (
      <div className="mt-2 space-y-1.5">
        <div className="flex items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
          {name}
          <span className="ml-auto shrink-0 tabular-nums" aria-hidden="true">
            {job.state === 'checking' ? (
              'Checking…'
            ) : (
              <>
                {job.percent}%
                {/* On a phone the name needs the room; the bar's value text keeps the bytes. */}
                <span className="hidden sm:inline">
                  {' '}
                  · {formatBytes(job.loaded)} of {formatBytes(job.total)}
                </span>
              </>
            )}
          </span>
          <Button
            size="sm"
            variant="ghost"
            className="-my-1 shrink-0"
            onClick={() => tracker.dismiss(job.id)}
          >
            Cancel<span className="sr-only"> uploading {job.file.name}</span>
          </Button>
        </div>
        <ProgressBar job={job} />
      </div>
    );
  }
  return (
    <div role="alert" className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <p className="min-w-0 flex-1 text-red-700 dark:text-red-400">
        {job.state === 'failed' ? `${job.file.name} was not uploaded: ${job.message}` : job.message}
      </p>
      {job.retryable && (
        <Button size="sm" onClick={() => tracker.retry(job.id)}>
          Retry<span className="sr-only"> uploading {job.file.name}</span>
        </Button>
      )}
      <Button size="sm" variant="ghost" onClick={() => tracker.dismiss(job.id)}>
        Dismiss<span className="sr-only"> the message about {job.file.name}</span>
      </Button>
    </div>
  );
}
