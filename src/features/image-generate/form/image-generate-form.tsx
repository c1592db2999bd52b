import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { ApiError } from '@/api/errors';
import type { ImageGenerateRequest } from '@/api/schemas';
import { BOUNDS, MODULES } from '@/api/core/rules';
import { CountField } from '@/forms/count-field';
import { CreationFormLayout } from '@/forms/creation-form-layout';
import { fillFromParams } from '@/forms/reuse-params';
import { FieldGroup } from '@/components/ui/field';
import { clearDraft, loadDraft, useDraftAutosave } from '@/forms/form-draft';
import { fieldForServerError, serverFieldMessage } from '@/forms/form-errors';
import { RadioCards } from '@/components/ui/radio-cards';
import { lazyZodResolver } from '@/forms/lazy-zod-resolver';
import { submitProps, useGuardedSubmit } from '@/forms/use-guarded-submit';
import { useUploadTracker } from '@/forms/uploads/upload-context';
import { AspectRatioPicker } from './aspect-ratio-picker';
import {
  IMAGE_FORM_DEFAULTS,
  IMAGE_FORM_FIELDS,
  toImageRequest,
  type ImageFormInput,
  type ImageFormOutput,
} from './image-form-model';
import { ImageSummary } from './image-summary';
import { PromptField } from '@/features/image-generate/prompt-field';
import { ReferenceImagesField } from './reference-images-field';
import { createImages } from './use-create-images';

export const IMAGE_DRAFT_KEY = 'image-generate';

const MODE_OPTIONS = [
  { value: 'std', label: 'Standard', description: 'The default mode; a good start for most prompts.' },
  {
    value: 'pro',
    label: 'Professional',
    description: 'Aims for finer detail and fidelity; may take longer.',
  },
] as const satisfies readonly { value: (typeof MODULES)[number]; label: string; description: string }[];

const QUALITY_OPTIONS = [
  { value: '1K', label: '1K' },
  { value: '2K', label: '2K' },
  { value: '4K', label: '4K' },
] as const;

const resolver = lazyZodResolver<ImageFormInput, ImageFormOutput>(() =>
  import('@/features/image-generate/image-form-schema').then((m) => m.imageFormSchema),
);

export function ImageGenerateForm() {
  const form = useForm<ImageFormInput, unknown, ImageFormOutput>({
    resolver,
    defaultValues: loadDraft(IMAGE_DRAFT_KEY, IMAGE_FORM_DEFAULTS),
    // Checked when a field is first left, then on every change: an error clears the moment its
    // value is valid, so nothing is left to disappear (and shift the layout) when the field is left.
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, control, setError, setFocus, setValue, formState } = form;
  const uploads = useUploadTracker();
  const { errors } = formState;
  useDraftAutosave(form, IMAGE_DRAFT_KEY);
  // A server verdict on the reference images holds for the URLs it judged; editing them hides it.
  const [referenceVerdict, setReferenceVerdict] = useState<{ message: string; urls: string }>();
  const references = useWatch({ control, name: 'reference_images' });
  const referenceError =
    referenceVerdict?.urls === JSON.stringify(references) ? referenceVerdict.message : undefined;

  /** 530002 and errors naming reference_images mark the list; 100001/100002 go to their field. */
  function placeError(error: ApiError): boolean {
    const field =
      error.kind === 'reference_image' ? 'reference_images' : fieldForServerError(error, IMAGE_FORM_FIELDS);
    if (field === 'reference_images') {
      const rows = form.getValues('reference_images');
      const message =
        error.kind === 'reference_image'
          ? `${error.explanation} (Code ${error.code}: “${error.msg}”)`
          : serverFieldMessage(error);
      setReferenceVerdict({ message, urls: JSON.stringify(rows) });
      const first = rows.findIndex((row) => row.url.trim());
      if (first >= 0) setFocus(`reference_images.${first}.url`);
    } else if (field) {
      setError(field, { type: 'server', message: serverFieldMessage(error) }, { shouldFocus: true });
    }
    return Boolean(field);
  }

  const guarded = useGuardedSubmit(
    (body: ImageGenerateRequest) => createImages(body, uploads.nameOf),
    placeError,
  );
  const { submit, result, reset } = guarded;
  const onValid = (values: ImageFormOutput) => {
    setReferenceVerdict(undefined);
    return submit(toImageRequest(values));
  };

  function resetToDefaults() {
    form.reset(IMAGE_FORM_DEFAULTS);
    clearDraft(IMAGE_DRAFT_KEY);
    reset();
    setReferenceVerdict(undefined);
  }

  const reusePrompt = (params: Record<string, unknown>) =>
    fillFromParams(form, IMAGE_FORM_DEFAULTS, params, 'prompt');
  return (
    <CreationFormLayout
      titleId="image-form-title"
      title="Image generation settings"
      {...submitProps(handleSubmit(onValid), guarded, formState.isSubmitting)}
      submitLabel="Generate images"
      onReset={resetToDefaults}
      onEngage={resolver.preload}
      uploads={uploads}
      kind="image_generate"
      created={
        result && {
          tasks: result.taskIds.map((id, index) => ({ id, label: `Image ${index + 1}` })),
          curl: result.curl,
          note: result.historyNote,
        }
      }
      summary={<ImageSummary control={control} />}
      onReuse={reusePrompt}
    >
      <PromptField control={control} register={register} error={errors.prompt?.message} />

      <ReferenceImagesField
        control={control}
        register={register}
        errors={errors}
        serverError={referenceError}
        setValue={setValue}
      />

      <FieldGroup role="radiogroup" legend="Mode" error={errors.module?.message} errorId="module-error">
        <RadioCards options={MODE_OPTIONS} registration={register('module')} columns="sm:grid-cols-2" />
      </FieldGroup>

      <div className="grid gap-6 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <CountField
          label="Number of images"
          error={errors.generate_count?.message}
          hint={`${BOUNDS.generateCount.min} to ${BOUNDS.generateCount.max}; one task per image.`}
          min={BOUNDS.generateCount.min}
          max={BOUNDS.generateCount.max}
          registration={register('generate_count', { valueAsNumber: true })}
        />
        <FieldGroup
          role="radiogroup"
          legend="Quality"
          error={errors.image_quality?.message}
          errorId="quality-error"
          hint="Resolution of each image; higher takes longer."
          hintId="quality-hint"
        >
          <RadioCards
            options={QUALITY_OPTIONS}
            registration={register('image_quality')}
            columns="grid-cols-3"
            compact
            describedBy="quality-hint"
          />
        </FieldGroup>
      </div>

      <FieldGroup
        role="radiogroup"
        legend="Aspect ratio"
        error={errors.image_ratio?.message}
        errorId="ratio-error"
      >
        <AspectRatioPicker registration={register('image_ratio')} />
      </FieldGroup>
    </CreationFormLayout>
  );
}
