import { useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';
import { isHttpUrl } from '@/api/http-url';
import { BOUNDS } from '@/api/rules';
import { Button } from '@/components/ui/button';
import { FieldError, describedBy } from '@/components/ui/field';
import { hintClass, inputClass } from '@/components/ui/styles';
import { FORMAT_LIST, type ImageFormInput, type ImageFormValues } from './image-form-model';

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

function ReferenceImageRow({
  index,
  url,
  error,
  groupError,
  register,
  onRemove,
}: {
  index: number;
  url: string;
  error?: string;
  groupError?: string;
  register: UseFormRegister<ImageFormInput>;
  onRemove: () => void;
}) {
  const probe = useImageProbe(url);
  const inputId = `reference-image-${index}`;
  const loadNote = probe.status === 'error' && !error ? `${inputId}-load` : undefined;
  return (
    <li className="flex items-start gap-3">
      <Thumbnail url={url} probe={probe} label={`Preview of reference image ${index + 1}`} />
      <div className="min-w-0 flex-1">
        <label htmlFor={inputId} className="sr-only">
          Reference image URL {index + 1}
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/reference.png"
            aria-invalid={error || groupError ? true : undefined}
            aria-describedby={describedBy(
              error && `${inputId}-error`,
              loadNote,
              groupError && 'reference-images-error',
            )}
            className={inputClass}
            {...register(`reference_images.${index}.url`)}
          />
          <Button variant="ghost" size="sm" onClick={onRemove} className="shrink-0">
            <span aria-hidden="true">✕</span>
            <span className="sr-only">Remove reference image {index + 1}</span>
          </Button>
        </div>
        {error && <FieldError id={`${inputId}-error`}>{error}</FieldError>}
        {loadNote && (
          <p id={loadNote} className="mt-1.5 text-xs text-amber-800 dark:text-amber-300">
            This image does not load in the browser. Check that the link is public and points to an image.
          </p>
        )}
      </div>
    </li>
  );
}

export function ReferenceImagesField({
  control,
  register,
  errors,
  serverError,
}: {
  control: Control<ImageFormInput, unknown, unknown>;
  register: UseFormRegister<ImageFormInput>;
  errors: FieldErrors<ImageFormValues>;
  /** 530002 or a 100001/100002 naming reference_images. */
  serverError?: string;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'reference_images' });
  const urls = useWatch({ control, name: 'reference_images' });
  const full = fields.length >= BOUNDS.referenceImagesMax;
  const listError = errors.reference_images?.root?.message ?? errors.reference_images?.message;
  const groupError = serverError ?? listError;
  return (
    <fieldset aria-describedby={describedBy(groupError && 'reference-images-error', 'reference-images-hint')}>
      <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        Reference images
        <span className="ml-1.5 text-xs font-normal text-zinc-500 dark:text-zinc-400">
          optional · {fields.length} of {BOUNDS.referenceImagesMax}
        </span>
      </legend>
      <p id="reference-images-hint" className={`mt-1 ${hintClass}`}>
        Public links to images the result should follow. {FORMAT_LIST}, at most 20 MB each.
      </p>
      {fields.length > 0 && (
        <ol className="mt-3 space-y-3">
          {fields.map((field, index) => (
            <ReferenceImageRow
              key={field.id}
              index={index}
              url={urls?.[index]?.url?.trim() ?? ''}
              error={errors.reference_images?.[index]?.url?.message}
              groupError={groupError}
              register={register}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      {groupError && <FieldError id="reference-images-error">{groupError}</FieldError>}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          onClick={() => append({ url: '' }, { shouldFocus: true })}
          disabled={full}
          aria-describedby={full ? 'reference-images-full' : undefined}
          icon={
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
            </svg>
          }
        >
          Add reference image
        </Button>
        {full && (
          <p id="reference-images-full" className={hintClass}>
            Limit reached: the service uses at most {BOUNDS.referenceImagesMax} reference images and silently
            ignores the rest.
          </p>
        )}
      </div>
    </fieldset>
  );
}
