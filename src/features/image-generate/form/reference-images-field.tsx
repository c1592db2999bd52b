// A list of image URLs (reference images): rows of ./image-url-row.tsx with add, remove and files.
import type { ReactNode } from 'react';
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
  type UseFormSetValue,
} from 'react-hook-form';
import { BOUNDS } from '@/api/core/rules';
import { Button } from '@/components/ui/core/button';
import { FieldError, describedBy } from '@/components/ui/field';
import { hintClass } from '@/components/ui/styles';
import { IMAGE_ACCEPT, type UploadAccept } from '@/forms/uploads/upload-accept';
import { ImageListFiles } from '@/forms/uploads/image-file-controls';
import { useListFiles } from './use-list-files';
import { FORMAT_LIST } from './image-url-format';
import { ImageUrlRow } from '@/features/image-generate/image-url-row';

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
        refusals={files?.refusals}
        onDismissRefusals={files?.dismissRefusals}
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
