// The file controls every image or video field shares: a pick button, drop and paste on the field,
// one line per upload (progress bar with percent and bytes, cancel; a refusal or failure with
// retry), and the "not available here" note once the backend has shown it has no upload endpoint.
import { useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { hintClass } from '@/components/ui/styles';
import { formatBytes, pickerAccept, type UploadAccept } from './upload-accept';
import { UPLOADS_UNAVAILABLE_NOTE } from './upload-words';
import { useSlotJobs } from './upload-context';
import type { UploadJob, UploadTracker } from './upload-tracker';

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Drop and paste of files on an element; text pastes and drags go on as usual. `dragging` is for
 * the highlight while files are held over it.
 */
export function useFileDrop(onFiles: ((files: File[]) => void) | undefined) {
  const [dragging, setDragging] = useState(false);
  if (!onFiles) return { dragging: false, props: {} };
  return {
    dragging,
    props: {
      onDragOver: (event: DragEvent) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      },
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        setDragging(false);
        const files = [...event.dataTransfer.files];
        if (files.length === 0) return;
        event.preventDefault();
        event.stopPropagation();
        onFiles(files);
      },
      onPaste: (event: ClipboardEvent) => {
        const files = [...event.clipboardData.files];
        if (files.length === 0) return;
        event.preventDefault();
        event.stopPropagation();
        onFiles(files);
      },
    },
  };
}

export const dropHighlight = (dragging: boolean) =>
  dragging ? 'rounded-lg outline-2 outline-offset-4 outline-indigo-500 outline-dashed' : '';

const uploadIcon = (
  <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
    <path d="M9.25 13.25a.75.75 0 0 0 1.5 0V4.636l2.955 3.129a.75.75 0 0 0 1.09-1.03l-4.25-4.5a.75.75 0 0 0-1.09 0l-4.25 4.5a.75.75 0 1 0 1.09 1.03L9.25 4.636v8.614Z" />
    <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
  </svg>
);

/** A button that opens the file dialog; the hidden input only carries the dialog. */
export function FilePickButton({
  accept,
  multiple = false,
  onFiles,
  children,
  label,
  iconOnly = false,
}: {
  accept: UploadAccept;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  children?: ReactNode;
  /** The accessible name when the visible text is short or absent. */
  label?: string;
  iconOnly?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        size="sm"
        variant={iconOnly ? 'ghost' : 'secondary'}
        icon={uploadIcon}
        aria-label={label}
        title={iconOnly ? label : undefined}
        className={iconOnly ? 'shrink-0' : ''}
        onClick={() => input.current?.click()}
      >
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        accept={pickerAccept(accept)}
        multiple={multiple}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}

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

export function UploadsUnavailableNote({ id }: { id?: string }) {
  return (
    <p id={id} className={`mt-1.5 ${hintClass}`}>
      {UPLOADS_UNAVAILABLE_NOTE}
    </p>
  );
}

/** The uploads of one slot (a row or a field) of the form around. */
export function SlotUploads({ tracker, slot }: { tracker: UploadTracker; slot: string }) {
  const jobs = useSlotJobs(tracker, slot);
  return jobs.map((job) => <UploadLine key={job.id} job={job} tracker={tracker} />);
}
