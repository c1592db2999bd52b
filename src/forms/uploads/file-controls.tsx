// The file controls every image or video field shares: a pick button, drop and paste on the field,
// one line per upload (./upload-line.tsx), and the "not available here" note once the backend has
// shown it has no upload endpoint.
import { lazy, Suspense, useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/core/button';
import { useMyName } from '@/api/my-name';
import { needsRole } from '@/api/roles';
import { hintClass } from '@/components/ui/styles';
import { pickerAccept, type UploadAccept } from './upload-accept';
import { UPLOADS_UNAVAILABLE_NOTE } from './upload-words';
import { useSlotJobs } from './upload-context';
import type { UploadTracker } from './upload-tracker';

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Drop and paste of files on an element; text pastes and drags go on as usual. `dragging` is for
 * the highlight while files are held over it.
 */
export function useFileDrop(onFiles: ((files: File[]) => void) | undefined) {
  const [dragging, setDragging] = useState(false);
  // A viewer uploads nothing (the server refuses it): a dropped file is not taken in.
  const viewer = useViewer();
  if (!onFiles || viewer) return { dragging: false, props: {} };
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

const useViewer = () => useMyName().role === 'viewer';

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
  const viewer = useViewer();
  return (
    <>
      <Button
        size="sm"
        variant={iconOnly ? 'ghost' : 'secondary'}
        icon={uploadIcon}
        aria-label={label}
        disabled={viewer}
        title={viewer ? needsRole('creator', 'upload files') : iconOnly ? label : undefined}
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

export function UploadsUnavailableNote({ id }: { id?: string }) {
  return (
    <p id={id} className={`mt-1.5 ${hintClass}`}>
      {UPLOADS_UNAVAILABLE_NOTE}
    </p>
  );
}

// Shown only once a file is given: loaded then, not with the form.
const UploadLine = lazy(() => import('./upload-line').then((m) => ({ default: m.UploadLine })));

/** The uploads of one slot (a row or a field) of the form around. */
export function SlotUploads({ tracker, slot }: { tracker: UploadTracker; slot: string }) {
  const jobs = useSlotJobs(tracker, slot);
  if (jobs.length === 0) return null;
  return (
    <Suspense fallback={null}>
      {jobs.map((job) => (
        <UploadLine key={job.id} job={job} tracker={tracker} />
      ))}
    </Suspense>
  );
}
