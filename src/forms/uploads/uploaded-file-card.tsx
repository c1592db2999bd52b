// An uploaded file as a person knows it: its name and size (and, for a video, a poster frame and
// its duration), in place of the long address the upload returned. "Edit link" shows the
// field's URL input again.
import { useState } from 'react';
import { Button } from '@/components/ui/core/button';
import { hintClass } from '@/components/ui/styles';
import { formatBytes } from './upload-accept';
import type { UploadedFile } from './upload-tracker';

function formatClock(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A small poster of the uploaded video (its first frame) and its length once the browser knows it. */
function VideoPoster({ url, onDuration }: { url: string; onDuration: (seconds: number) => void }) {
  return (
    <video
      src={`${url}#t=0.1`}
      preload="metadata"
      muted
      playsInline
      aria-hidden="true"
      tabIndex={-1}
      onLoadedMetadata={(event) => {
        const { duration } = event.currentTarget;
        if (Number.isFinite(duration)) onDuration(duration);
      }}
      className="h-12 w-20 shrink-0 rounded-md bg-black object-cover"
    />
  );
}

export function UploadedFileCard({
  file,
  url,
  video = false,
  onEditLink,
}: {
  file: UploadedFile;
  url: string;
  /** A video shows its poster and duration; an image's thumbnail is the row's own. */
  video?: boolean;
  onEditLink: () => void;
}) {
  const [duration, setDuration] = useState<number>();
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3" data-testid="uploaded-file">
      {video && <VideoPoster url={url} onDuration={setDuration} />}
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100" title={file.name}>
          {file.name}
        </p>
        <p className={`${hintClass} tabular-nums`}>
          {formatBytes(file.size)}
          {duration !== undefined && ` · ${formatClock(duration)}`} · uploaded
        </p>
      </div>
      <Button size="sm" variant="ghost" className="shrink-0" onClick={onEditLink}>
        Edit link<span className="sr-only"> of {file.name}</span>
      </Button>
    </div>
  );
}
