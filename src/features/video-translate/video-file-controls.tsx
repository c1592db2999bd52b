import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import { hintClass } from '@/components/ui/styles';
import { useTouchDevice } from '@/components/ui/use-media-query';
import {
  dropHighlight,
  FilePickButton,
  SlotUploads,
  UploadsUnavailableNote,
  useFileDrop,
} from '@/forms/uploads/file-controls';
import { SET_UPLOADED, singleFile } from '@/forms/uploads/single-file';
import { formatBytes, videoAccept } from '@/forms/uploads/upload-accept';
import { useUploads } from '@/forms/uploads/upload-context';
import { UploadedFileCard } from '@/forms/uploads/uploaded-file-card';
import { useUploadsUnavailable } from '@/forms/uploads/uploads-availability';

export { SET_UPLOADED };

/**
 * A video URL field that also takes a file: picked, dropped or pasted on it. The largest file is
 * the console's UPLOAD_MAX_MB, as /__console/config says (500 MB until it has answered).
 */
export function VideoFileControls({
  slot,
  url,
  onUploaded,
  children,
}: {
  slot: string;
  url: string;
  onUploaded: (url: string) => void;
  /** The URL input and its preview. */
  children: ReactNode;
}) {
  const [editing, setEditing] = useState<string>();
  const field = useRef<HTMLDivElement>(null);
  const tracker = useUploads();
  const unavailable = useUploadsUnavailable();
  const accept = videoAccept(useConsoleInfo().data?.uploadMaxBytes);
  const files = tracker && !unavailable ? singleFile(tracker, slot, onUploaded, accept) : undefined;
  const drop = useFileDrop(files?.onFiles);
  useEffect(() => tracker?.hold(slot), [tracker, slot]);
  const uploaded = editing !== url ? tracker?.fileOf(url) : undefined;
  const touch = useTouchDevice();
  return (
    <div {...drop.props} className={dropHighlight(drop.dragging)}>
      {/* An uploaded video shows as its poster, name, size and length; its address on request. */}
      {uploaded && (
        <UploadedFileCard
          file={uploaded}
          url={url}
          video
          onEditLink={() => {
            setEditing(url);
            requestAnimationFrame(() => field.current?.querySelector('input')?.focus());
          }}
        />
      )}
      <div ref={field} className={uploaded ? 'hidden' : undefined}>
        {children}
      </div>
      {files && (
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <FilePickButton accept={accept} onFiles={files.onFiles}>
            Upload video
          </FilePickButton>
          <span className={hintClass}>
            {touch ? 'from your files' : 'or drop or paste it here'} · {accept.label}, at most{' '}
            {formatBytes(accept.maxBytes)}
          </span>
        </div>
      )}
      {tracker && unavailable && <UploadsUnavailableNote />}
      {tracker && <SlotUploads tracker={tracker} slot={slot} />}
    </div>
  );
}
