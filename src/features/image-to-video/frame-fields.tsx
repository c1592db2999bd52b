import type { ReactNode } from 'react';
import type { FieldErrors, UseFormRegister, UseFormSetValue } from 'react-hook-form';
import { Link } from 'wouter';
import { hintClass } from '@/components/ui/styles';
import { ImageUrlRow } from '@/features/image-generate/image-url-row';
import { SET_UPLOADED, singleFile } from '@/forms/uploads/single-file';
import type { UploadTracker } from '@/forms/uploads/upload-tracker';
import type { Orientation } from './use-image-orientation';
import type { VideoFormValues } from './video-form-model';

/** One frame's fieldset: its legend, the hint the row is described by, and the row. */
function FrameFieldset({
  id,
  legend,
  optional = false,
  hint,
  children,
}: {
  id: string;
  legend: string;
  optional?: boolean;
  hint: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        {legend}
        {optional && (
          <span className="ml-1.5 text-xs font-normal text-zinc-500 dark:text-zinc-400">optional</span>
        )}
      </legend>
      <p id={`${id}-hint`} className={`mt-1 mb-3 ${hintClass}`}>
        {hint}
      </p>
      {children}
    </fieldset>
  );
}

/** Start frame mode's two images: the start frame (maybe from Animate) and the optional end frame. */
export function FrameFields({
  register,
  setValue,
  errors,
  uploads,
  startFrame,
  endFrame,
  animatedFrom,
  orientations: [startOrientation, endOrientation],
}: {
  register: UseFormRegister<VideoFormValues>;
  setValue: UseFormSetValue<VideoFormValues>;
  errors: FieldErrors<VideoFormValues>;
  uploads: UploadTracker;
  /** The frames' URLs, trimmed. */
  startFrame: string;
  endFrame: string;
  /** The image task the start frame came from (Animate), while it is still that image. */
  animatedFrom: string | undefined;
  orientations: [start: Orientation | undefined, end: Orientation | undefined];
}) {
  const differ = startOrientation && endOrientation && startOrientation !== endOrientation;
  return (
    <div className="space-y-4">
      <FrameFieldset
        id="start-frame"
        legend="Start frame"
        hint={
          <>
            The video starts on this image. JPG, PNG or WebP, at most 20 MB.
            {animatedFrom && (
              <>
                {' '}
                From image task{' '}
                <Link
                  href={`/tasks/${encodeURIComponent(animatedFrom)}`}
                  className="font-mono break-all text-indigo-700 underline dark:text-indigo-300"
                >
                  {animatedFrom}
                </Link>
                .
              </>
            )}
          </>
        }
      >
        <ImageUrlRow
          inputId="start-frame"
          label="Start frame URL"
          previewLabel="Preview of the start frame"
          url={startFrame}
          error={errors.image_url?.message}
          registration={register('image_url')}
          placeholder="https://example.com/first-frame.png"
          files={singleFile(uploads, 'image_url', (url) => setValue('image_url', url, SET_UPLOADED))}
        />
      </FrameFieldset>
      <FrameFieldset
        id="end-frame"
        legend="End frame"
        optional
        hint="The video ends on this image. Best with the same orientation as the start frame."
      >
        <ImageUrlRow
          inputId="end-frame"
          label="End frame URL"
          previewLabel="Preview of the end frame"
          url={endFrame}
          error={errors.end_image_url?.message}
          registration={register('end_image_url')}
          describedById={differ ? 'frames-differ' : undefined}
          placeholder="https://example.com/last-frame.png"
          files={singleFile(uploads, 'end_image_url', (url) => setValue('end_image_url', url, SET_UPLOADED))}
        />
        {differ && (
          <p id="frames-differ" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
            The start frame is {startOrientation} and the end frame is {endOrientation}: frames of different
            orientations lower the video’s quality.
          </p>
        )}
      </FrameFieldset>
    </div>
  );
}
