// The file side of an image row (pick button, drop and paste on the row, its uploads, the name of
// the file its URL came from) and of a list of rows (pick several, what did not fit).
import { useEffect, type ReactNode } from 'react';
import { Button } from '@/components/ui/core/button';
import { hintClass } from '@/components/ui/styles';
import { useTouchDevice } from '@/components/ui/use-media-query';
import {
  dropHighlight,
  FilePickButton,
  SlotUploads,
  UploadsUnavailableNote,
  useFileDrop,
} from './file-controls';
import { IMAGE_ACCEPT, type UploadAccept } from './upload-accept';
import { useUploads } from './upload-context';
import { useUploadsUnavailable } from './uploads-availability';

interface RowFilesOptions {
  slot: string;
  onFiles: (files: File[]) => void;
  accept?: UploadAccept;
  /** A field on its own (not a row of a list): it says itself when uploads are not available. */
  single?: boolean;
  url: string;
  /** The input's name, e.g. "Reference image URL 2". */
  label: string;
}

export function useRowFiles(options: RowFilesOptions | undefined) {
  const tracker = useUploads();
  const unavailable = useUploadsUnavailable();
  const enabled = Boolean(tracker && options && !unavailable);
  const drop = useFileDrop(enabled ? options?.onFiles : undefined);
  const slot = options?.slot;
  // A row that goes away (removed, or the mode changed) takes its upload with it.
  useEffect(() => (slot ? tracker?.hold(slot) : undefined), [tracker, slot]);
  if (!tracker || !options)
    return { highlight: '', dropProps: {}, pickButton: null, below: null, uploaded: undefined };
  const uploaded = tracker.fileOf(options.url);
  const what = options.label.replace(/ URL/, '').toLowerCase();
  return {
    highlight: dropHighlight(drop.dragging),
    dropProps: drop.props,
    /** The file this row's URL was uploaded from: the row shows it instead of the address. */
    uploaded,
    pickButton: enabled && (
      <FilePickButton
        iconOnly
        accept={options.accept ?? IMAGE_ACCEPT}
        onFiles={options.onFiles}
        label={`Upload a file for ${what}`}
      />
    ),
    below: (
      <>
        <SlotUploads tracker={tracker} slot={options.slot} />
        {unavailable && options.single && <UploadsUnavailableNote />}
      </>
    ),
  };
}

/** Under a list of image rows: pick several files at once, and what did not fit. */
export function ImageListFiles({
  accept = IMAGE_ACCEPT,
  onFiles,
  takesFiles,
  full,
  leftOut,
  refusals = [],
  onDismissRefusals,
  children,
}: {
  accept?: UploadAccept;
  /** Absent while files are not offered (no form uploads, or none on this backend). */
  onFiles?: (files: File[]) => void;
  /** The list takes files where uploads work. */
  takesFiles: boolean;
  full: boolean;
  leftOut?: string;
  /** Files the browser's check refused: no row was added for them. */
  refusals?: readonly string[];
  onDismissRefusals?: () => void;
  /** The list's own buttons (Add), shown in the same line. */
  children: ReactNode;
}) {
  const tracker = useUploads();
  const unavailable = useUploadsUnavailable();
  const offered = Boolean(tracker && onFiles) && !unavailable;
  // A phone has nothing to drag from and rarely an image to paste: it chooses from photos or files.
  const touch = useTouchDevice();
  return (
    <>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {children}
        {offered && onFiles && !full && (
          <>
            <FilePickButton accept={accept} multiple onFiles={onFiles}>
              Upload images
            </FilePickButton>
            <span className={hintClass}>
              {touch ? 'from your photos or files' : 'or drop or paste them here'}
            </span>
          </>
        )}
      </div>
      {refusals.length > 0 && (
        <div role="alert" className="mt-2 flex flex-wrap items-start gap-x-2 gap-y-1 text-sm">
          <ul className="min-w-0 flex-1 space-y-0.5 text-red-700 dark:text-red-400">
            {refusals.map((refusal) => (
              <li key={refusal}>{refusal}</li>
            ))}
          </ul>
          {onDismissRefusals && (
            <Button size="sm" variant="ghost" onClick={onDismissRefusals}>
              Dismiss<span className="sr-only"> the message about refused files</span>
            </Button>
          )}
        </div>
      )}
      {tracker && takesFiles && unavailable && <UploadsUnavailableNote />}
      {leftOut && (
        <p role="status" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
          {leftOut}
        </p>
      )}
    </>
  );
}
