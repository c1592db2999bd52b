// One image URL with its thumbnail: a row of the reference images list, and on its own a start or
// end frame of Image to video (which loads the list only in the modes that show it).
import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { isHttpUrl } from '@/api/core/http-url';
import { thumbnailSrc } from '@/api/preview-src';
import { Button } from '@/components/ui/core/button';
import { FieldError, describedBy } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';
import type { UploadAccept } from '@/forms/uploads/upload-accept';
import { useRowFiles } from '@/forms/uploads/image-file-controls';
import { UploadedFileCard } from '@/forms/uploads/uploaded-file-card';
import { previewReason } from './preview-api';

type Probe = 'none' | 'loading' | 'ok' | 'error';

/**
 * Whether the browser can display the image, remembered per URL so a new URL starts over. A hint
 * only: the service downloads the image itself, from its own network.
 */
function useImageProbe(url: string) {
  const [state, setState] = useState<{ url: string; status: Probe; reason?: string }>({
    url,
    status: 'loading',
  });
  const show = isHttpUrl(url);
  const status: Probe = !show ? 'none' : state.url === url ? state.status : 'loading';
  return {
    status,
    reason: state.url === url ? state.reason : undefined,
    onLoad: () => setState({ url, status: 'ok' }),
    onError: () => {
      setState({ url, status: 'error' });
      void previewReason(thumbnailSrc(url)).then(
        (reason) => reason && setState((now) => (now.url === url ? { ...now, reason } : now)),
      );
    },
  };
}

function Thumbnail({
  url,
  probe,
  label,
}: {
  url: string;
  probe: ReturnType<typeof useImageProbe>;
  label: string;
}) {
  const { status } = probe;
  return (
    <div
      className={`flex size-12 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-zinc-50 dark:bg-zinc-800 ${
        status === 'error'
          ? 'border-amber-400 dark:border-amber-600'
          : 'border-dashed border-zinc-300 dark:border-zinc-700'
      }`}
    >
      {status !== 'none' && (
        <img
          key={url}
          src={thumbnailSrc(url)}
          alt={label}
          referrerPolicy="no-referrer"
          onLoad={probe.onLoad}
          onError={probe.onError}
          className={`size-full object-cover ${status === 'error' ? 'hidden' : ''}`}
        />
      )}
      {(status === 'none' || status === 'error') && (
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          className="size-5 text-zinc-400"
        >
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <path d="m3 16 5-5 4 4 3-3 6 6M15 9.5h.01" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      )}
    </div>
  );
}

/**
 * One image URL with its thumbnail as it loads and a note when the browser cannot show it. Used for
 * each reference image here and, on its own, for single images (the start and end frames of Image
 * to video).
 */
export function ImageUrlRow({
  inputId,
  label,
  previewLabel,
  url,
  error,
  groupErrorId,
  describedById,
  registration,
  onRemove,
  removeLabel,
  placeholder = 'https://example.com/reference.png',
  files,
}: {
  inputId: string;
  /** The input's name for assistive technology, e.g. "Reference image URL 2". */
  label: string;
  /** The thumbnail's alt text, e.g. "Preview of reference image 2". */
  previewLabel: string;
  url: string;
  error?: string;
  /** The id of an error that concerns the whole group this row is in. */
  groupErrorId?: string;
  describedById?: string;
  registration: UseFormRegisterReturn;
  onRemove?: () => void;
  removeLabel?: string;
  placeholder?: string;
  /** Files for this row: the slot its uploads are tracked under, and where dropped files go. */
  files?: { slot: string; onFiles: (files: File[]) => void; accept?: UploadAccept; single?: boolean };
}) {
  const probe = useImageProbe(url);
  const loadNote = probe.status === 'error' && !error ? `${inputId}-load` : undefined;
  const fileControls = useRowFiles(files && { ...files, url, label });
  // An uploaded file shows as its name and size; its address only on request (or with an error).
  const [editing, setEditing] = useState<string>();
  const uploaded = !error && editing !== url ? fileControls.uploaded : undefined;
  return (
    <div className={`flex items-start gap-3 ${fileControls.highlight}`} {...fileControls.dropProps}>
      <Thumbnail url={url} probe={probe} label={previewLabel} />
      <div className="min-w-0 flex-1">
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <div className="flex gap-2">
          {uploaded && (
            <UploadedFileCard
              file={uploaded}
              url={url}
              onEditLink={() => {
                setEditing(url);
                requestAnimationFrame(() => document.getElementById(inputId)?.focus());
              }}
            />
          )}
          <input
            id={inputId}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            aria-invalid={error || groupErrorId ? true : undefined}
            aria-describedby={describedBy(error && `${inputId}-error`, loadNote, groupErrorId, describedById)}
            className={uploaded ? 'hidden' : inputClass}
            {...registration}
          />
          {fileControls.pickButton}
          {onRemove && (
            <Button variant="ghost" size="sm" onClick={onRemove} className="shrink-0">
              <span aria-hidden="true">✕</span>
              <span className="sr-only">{removeLabel}</span>
            </Button>
          )}
        </div>
        {error && <FieldError id={`${inputId}-error`}>{error}</FieldError>}
        {loadNote && (
          <p id={loadNote} className="mt-1.5 text-xs text-amber-800 dark:text-amber-300">
            {probe.reason ? `No preview: ${probe.reason}` : 'This image does not load in the browser.'} The
            service fetches it itself; check that the link is public and points to an image.
          </p>
        )}
        {fileControls.below}
      </div>
    </div>
  );
}
