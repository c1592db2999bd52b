import { useState, type ReactNode } from 'react';
import {
  useFieldArray,
  useWatch,
  type ArrayPath,
  type Control,
  type FieldError as RhfFieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  type UseFormRegisterReturn,
  type UseFormSetValue,
} from 'react-hook-form';
import { isHttpUrl } from '@/api/http-url';
import { BOUNDS } from '@/api/rules';
import { Button } from '@/components/ui/button';
import { FieldError, describedBy } from '@/components/ui/field';
import { hintClass, inputClass } from '@/components/ui/styles';
import { IMAGE_ACCEPT, type UploadAccept } from '@/forms/uploads/upload-accept';
import { ImageListFiles, useRowFiles } from '@/forms/uploads/image-file-controls';
import { useListFiles } from '@/forms/uploads/use-list-files';
import { FORMAT_LIST } from './image-form-model';

type Probe = 'none' | 'loading' | 'ok' | 'error';

/**
 * Whether the browser can display the image, remembered per URL so a new URL starts over. A hint
 * only: the service downloads the image itself, from its own network.
 */
function useImageProbe(url: string) {
  const [state, setState] = useState<{ url: string; status: Probe }>({ url, status: 'loading' });
  const show = isHttpUrl(url);
  const status: Probe = !show ? 'none' : state.url === url ? state.status : 'loading';
  return {
    status,
    onLoad: () => setState({ url, status: 'ok' }),
    onError: () => setState({ url, status: 'error' }),
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
          src={url}
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
  return (
    <div className={`flex items-start gap-3 ${fileControls.highlight}`} {...fileControls.dropProps}>
      <Thumbnail url={url} probe={probe} label={previewLabel} />
      <div className="min-w-0 flex-1">
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            aria-invalid={error || groupErrorId ? true : undefined}
            aria-describedby={describedBy(error && `${inputId}-error`, loadNote, groupErrorId, describedById)}
            className={inputClass}
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
            This image does not load in the browser. Check that the link is public and points to an image.
          </p>
        )}
        {fileControls.below}
      </div>
    </div>
  );
}

type ImageRows = { url: string }[];

/**
 * A list of image URLs (rows of `{url}`) with add and remove. Create image uses it as is; other
 * forms name their own list, its limit and its words.
 */
export function ReferenceImagesField<T extends FieldValues>({
  control,
  register,
  errors,
  serverError,
  name = 'reference_images' as ArrayPath<T>,
  max = BOUNDS.referenceImagesMax,
  legend = 'Reference images',
  optional = true,
  hint = `Public links to images the result should follow. ${FORMAT_LIST}, at most 20 MB each.`,
  fullNote = `Limit reached: the service uses at most ${BOUNDS.referenceImagesMax} reference images and silently ignores the rest.`,
  setValue,
  accept = IMAGE_ACCEPT,
}: {
  control: Control<T, unknown, unknown>;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  /** 530002 or a 100001/100002 naming reference_images. */
  serverError?: string;
  name?: ArrayPath<T>;
  max?: number;
  legend?: string;
  optional?: boolean;
  hint?: ReactNode;
  fullNote?: string;
  /** Given, the rows also take files (drop, paste, pick) inside a form with uploads. */
  setValue?: UseFormSetValue<T>;
  accept?: UploadAccept;
}) {
  const { fields, append, remove } = useFieldArray({ control, name });
  const urls = useWatch({ control, name: name as Path<T> }) as ImageRows | undefined;
  const id = name.replaceAll('_', '-');
  const full = fields.length >= max;
  const files = useListFiles({
    fields,
    urls,
    max,
    name,
    setValue,
    accept,
    append: append as (rows: { url: string }[], options: { shouldFocus: boolean }) => void,
    noun: legend.toLowerCase(),
  });
  const rowErrors = errors[name] as
    (RhfFieldError & { root?: RhfFieldError } & Record<number, { url?: RhfFieldError }>) | undefined;
  const listError = rowErrors?.root?.message ?? rowErrors?.message;
  const groupError = serverError ?? listError;
  const errorId = `${id}-error`;
  return (
    <fieldset
      aria-describedby={describedBy(groupError && errorId, `${id}-hint`)}
      className={files?.highlight}
      {...files?.dropProps}
    >
      <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        {legend}
        <span className="ml-1.5 text-xs font-normal text-zinc-500 dark:text-zinc-400">
          {optional ? 'optional · ' : ''}
          {fields.length} of {max}
        </span>
      </legend>
      <p id={`${id}-hint`} className={`mt-1 ${hintClass}`}>
        {hint}
      </p>
      {fields.length > 0 && (
        <ol className="mt-3 space-y-3">
          {fields.map((field, index) => (
            <li key={field.id}>
              <ImageUrlRow
                inputId={`${id.replace(/s$/, '')}-${index}`}
                label={`${legend.replace(/s$/, '')} URL ${index + 1}`}
                previewLabel={`Preview of ${legend.replace(/s$/, '').toLowerCase()} ${index + 1}`}
                url={urls?.[index]?.url?.trim() ?? ''}
                error={rowErrors?.[index]?.url?.message}
                groupErrorId={groupError ? errorId : undefined}
                registration={register(`${name}.${index}.url` as Path<T>)}
                onRemove={() => remove(index)}
                removeLabel={`Remove ${legend.replace(/s$/, '').toLowerCase()} ${index + 1}`}
                files={files && { slot: field.id, accept, onFiles: (picked) => files.onFiles(picked, index) }}
              />
            </li>
          ))}
        </ol>
      )}
      {groupError && <FieldError id={errorId}>{groupError}</FieldError>}
      <ImageListFiles
        accept={accept}
        onFiles={files?.onFiles}
        takesFiles={Boolean(setValue)}
        full={full}
        leftOut={files?.leftOut}
      >
        <Button
          size="sm"
          onClick={() => append({ url: '' } as Parameters<typeof append>[0], { shouldFocus: true })}
          disabled={full}
          aria-describedby={full ? `${id}-full` : undefined}
          icon={
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
            </svg>
          }
        >
          Add {legend.replace(/s$/, '').toLowerCase()}
        </Button>
        {full && (
          <p id={`${id}-full`} className={hintClass}>
            {fullNote}
          </p>
        )}
      </ImageListFiles>
    </fieldset>
  );
}
