import { lazy, useEffect, useState } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { ApiError } from '@/api/errors';
import { IMAGE_TO_VIDEO_MODE_RULES, type ImageToVideoMode } from '@/api/image-to-video/image-to-video-rules';
import { BOUNDS } from '@/api/core/rules';
import { CountField } from '@/forms/count-field';
import { FieldError, FieldGroup } from '@/components/ui/field';
import { RadioCards } from '@/components/ui/radio-cards';
import { hintClass } from '@/components/ui/styles';
import { Switch } from '@/components/ui/switch';
import { PromptField } from '@/features/image-generate/prompt-field';
import { CreationFormLayout } from '@/forms/creation-form-layout';
import { FRAME_ACCEPT } from '@/forms/uploads/upload-accept';
import { useUploadTracker } from '@/forms/uploads/upload-context';
import { clearDraft, loadDraft, useDraftAutosave } from '@/forms/form-draft';
import { lazyZodResolver } from '@/forms/lazy-zod-resolver';
import { submitProps, useGuardedSubmit } from '@/forms/use-guarded-submit';
import type { AnimateSource } from './link/animate-link';
import { Link } from 'wouter';
import { ImageUrlRow } from '@/features/image-generate/image-url-row';
import { SET_UPLOADED, singleFile } from '@/forms/uploads/single-file';
import { createVideos } from './use-create-videos';
import { useImageOrientation } from './use-image-orientation';
import { useModelAndMode } from './use-model-and-mode';
import { MODE_OPTIONS, MODEL_OPTIONS, RATIO_OPTIONS } from './video-choices';
import { videoErrorPlace } from './video-error-place';
import {
  VIDEO_FORM_DEFAULTS,
  switchVideoForm,
  toVideoRequest,
  usableDraft,
  type VideoFormValues,
} from './video-form-model';
import type { VideoFormOutput } from './schema/video-form-schema';
import { VideoSummary } from './video-summary';

export const I2V_DRAFT_KEY = 'image-to-video';

/**
 * The draft, with an image result from Animate as the start frame in its closest orientation and an
 * empty prompt: the video's prompt describes the motion, which the person is asked for.
 */
function initialValues(source: AnimateSource | undefined): VideoFormValues {
  const draft = usableDraft(loadDraft(I2V_DRAFT_KEY, VIDEO_FORM_DEFAULTS));
  if (!source) return draft;
  const { values } = switchVideoForm(draft, { mode: 'start_frame' });
  return {
    ...values,
    image_url: source.start,
    end_image_url: '',
    aspect_ratio: source.ratio,
    source_task: source.from,
    source_url: source.start,
    prompt: '',
  };
}

// The reference images list shows in two of the three modes, not the default one: it loads when
// the pointer comes over the form or the form is first used (and at once for a draft in those modes).
const referenceListModule = () => import('@/features/image-generate/form/reference-images-field');
const ReferenceImagesField = lazy(() =>
  referenceListModule().then((m) => ({ default: m.ReferenceImagesField<VideoFormValues> })),
);
const preloadReferenceList = () => void referenceListModule();

// Shown only after Animate: loaded then.
const MotionAsk = lazy(() => import('./suggestion/motion-ask').then((m) => ({ default: m.MotionAsk })));

const resolver = lazyZodResolver<VideoFormValues, VideoFormOutput>(() =>
  import('./schema/video-form-schema').then((m) => m.videoFormSchema),
);

export function ImageToVideoForm({ source }: { source?: AnimateSource }) {
  const form = useForm<VideoFormValues, unknown, VideoFormOutput>({
    resolver,
    defaultValues: initialValues(source),
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, control, setError, setFocus, setValue, formState } = form;
  const uploads = useUploadTracker();
  const { errors } = formState;
  useDraftAutosave(form, I2V_DRAFT_KEY);
  const switcher = useModelAndMode(form);
  const [unavailable, setUnavailable] = useState(false);
  const [mode, startFrame, endFrame, audio, sourceTask, sourceUrl] = useWatch({
    control,
    name: ['mode', 'image_url', 'end_image_url', 'generate_audio', 'source_task', 'source_url'],
  });
  // From Animate the motion is what is asked first.
  useEffect(() => {
    if (source) setFocus('prompt');
  }, [source, setFocus]);
  const rules = IMAGE_TO_VIDEO_MODE_RULES[mode] ?? IMAGE_TO_VIDEO_MODE_RULES.start_frame;
  const startOrientation = useImageOrientation(startFrame.trim());
  const endOrientation = useImageOrientation(endFrame.trim());
  const animatedFrom =
    rules.startFrame && sourceTask && startFrame.trim() === sourceUrl ? sourceTask : undefined;

  /** A refusal on the field it names (./video-error-place.ts); a 404 says the endpoint is missing. */
  async function placeError(error: ApiError): Promise<boolean> {
    if (error.kind === 'unavailable') {
      setUnavailable(true);
      return true;
    }
    const place = await videoErrorPlace(error, toVideoRequest(form.getValues()));
    if (!place) return false;
    setError(place.field, { type: 'server', message: place.message });
    if (place.field === 'reference_images') setFocus('reference_images.0.url');
    else setFocus(place.field);
    return true;
  }

  const differ =
    rules.startFrame && startOrientation && endOrientation && startOrientation !== endOrientation;
  const guarded = useGuardedSubmit(createVideos, placeError);
  const { submit, result, reset } = guarded;
  const onValid = (values: VideoFormOutput) => {
    setUnavailable(false);
    return submit({ body: toVideoRequest(values), animatedFrom, fileNames: uploads.nameOf });
  };

  function resetToDefaults() {
    form.reset(VIDEO_FORM_DEFAULTS);
    clearDraft(I2V_DRAFT_KEY);
    reset();
    switcher.clear();
    setUnavailable(false);
  }

  // Only the prompt: the model, mode and frames follow rules of their own (useModelAndMode).
  const reusePrompt = (params: Record<string, unknown>) => {
    if (typeof params.prompt !== 'string') return;
    setValue('prompt', params.prompt, { shouldDirty: true, shouldValidate: true });
    setFocus('prompt');
  };
  return (
    <CreationFormLayout
      titleId="i2v-form-title"
      title="Image to video settings"
      {...submitProps(handleSubmit(onValid), guarded, formState.isSubmitting)}
      submitLabel="Create videos"
      onReset={resetToDefaults}
      onEngage={() => {
        resolver.preload();
        preloadReferenceList();
      }}
      onApproach={preloadReferenceList}
      uploads={uploads}
      kind="image_to_video"
      created={
        result && {
          tasks: result.taskIds.map((id, index) => ({ id, label: `Video ${index + 1}` })),
          curl: result.curl,
          note: result.historyNote,
        }
      }
      summary={<VideoSummary control={control} />}
      onReuse={reusePrompt}
    >
      {unavailable && (
        <div
          role="status"
          className="rounded-xl border border-zinc-300 bg-zinc-50 p-4 text-sm text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
        >
          <p className="font-semibold">Image to video is not available on this backend</p>
          <p className="mt-1">
            It answered 404 to <code className="font-mono text-[13px]">POST /v1/image_to_video</code>, so no
            task was created. Your settings are kept here; existing image-to-video tasks can still be followed
            in Tasks.
          </p>
        </div>
      )}

      <FieldGroup role="radiogroup" legend="Model" errorId="model-error" error={errors.model?.message}>
        <RadioCards
          options={MODEL_OPTIONS}
          registration={register('model', {
            onChange: (event: { target: { value: 'V' | 'KL' } }) =>
              switcher.apply({ model: event.target.value }),
          })}
          columns="sm:grid-cols-2"
        />
      </FieldGroup>

      <FieldGroup role="radiogroup" legend="Mode" errorId="mode-error" error={errors.mode?.message}>
        <RadioCards
          options={MODE_OPTIONS}
          registration={register('mode', {
            onChange: (event: { target: { value: ImageToVideoMode } }) =>
              switcher.apply({ mode: event.target.value }),
          })}
          columns="sm:grid-cols-3"
        />
      </FieldGroup>
      <p role="status" className="-mt-4 text-sm text-indigo-800 empty:hidden dark:text-indigo-200">
        {switcher.change}
      </p>

      <PromptField
        control={control}
        register={register}
        error={errors.prompt?.message}
        placeholder="The camera slowly pushes in as the lighthouse beam turns; waves break below"
        hint={
          rules.audio ? (
            <>
              Describe the motion and the camera. For a narration, write{' '}
              <code className="font-mono">Speak &quot;…&quot;</code> in the prompt
              {audio ? '.' : ' and turn on Audio below.'}
            </>
          ) : (
            'Describe the motion and the camera, and how the reference images come together.'
          )
        }
      />
      {animatedFrom && (
        <LazyPart>
          <MotionAsk control={control} suggestion={source?.prompt} onUse={reusePrompt} />
        </LazyPart>
      )}

      {rules.startFrame ? (
        <div className="space-y-4">
          <fieldset aria-describedby="start-frame-hint">
            <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Start frame</legend>
            <p id="start-frame-hint" className={`mt-1 mb-3 ${hintClass}`}>
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
            </p>
            <ImageUrlRow
              inputId="start-frame"
              label="Start frame URL"
              previewLabel="Preview of the start frame"
              url={startFrame.trim()}
              error={errors.image_url?.message}
              registration={register('image_url')}
              placeholder="https://example.com/first-frame.png"
              files={singleFile(uploads, 'image_url', (url) => setValue('image_url', url, SET_UPLOADED))}
            />
          </fieldset>
          <fieldset aria-describedby="end-frame-hint">
            <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
              End frame
              <span className="ml-1.5 text-xs font-normal text-zinc-500 dark:text-zinc-400">optional</span>
            </legend>
            <p id="end-frame-hint" className={`mt-1 mb-3 ${hintClass}`}>
              The video ends on this image. Best with the same orientation as the start frame.
            </p>
            <ImageUrlRow
              inputId="end-frame"
              label="End frame URL"
              previewLabel="Preview of the end frame"
              url={endFrame.trim()}
              error={errors.end_image_url?.message}
              registration={register('end_image_url')}
              describedById={differ ? 'frames-differ' : undefined}
              placeholder="https://example.com/last-frame.png"
              files={singleFile(uploads, 'end_image_url', (url) =>
                setValue('end_image_url', url, SET_UPLOADED),
              )}
            />
            {differ && (
              <p id="frames-differ" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
                The start frame is {startOrientation} and the end frame is {endOrientation}: frames of
                different orientations lower the video’s quality.
              </p>
            )}
          </fieldset>
        </div>
      ) : (
        <LazyPart failed={<PartFailed what="The reference images list" />}>
          <ReferenceImagesField
            key={mode}
            control={control}
            register={register}
            errors={errors}
            max={rules.references!.max}
            optional={false}
            hint={`${rules.references!.min} to ${rules.references!.max} public image links for ${rules.label}. JPG, PNG or WebP, at most 20 MB each.`}
            fullNote={`Limit reached: ${rules.label} takes at most ${rules.references!.max} reference images.`}
            setValue={setValue}
            accept={FRAME_ACCEPT}
          />
        </LazyPart>
      )}

      <div className="grid gap-6 sm:grid-cols-2">
        <FieldGroup
          role="radiogroup"
          legend="Orientation"
          errorId="ratio-error"
          error={errors.aspect_ratio?.message}
        >
          <RadioCards
            options={RATIO_OPTIONS}
            registration={register('aspect_ratio')}
            columns="grid-cols-2"
            compact
          />
        </FieldGroup>
        <FieldGroup
          role="radiogroup"
          legend="Resolution"
          errorId="resolution-error"
          error={errors.aspect_resolution?.message}
        >
          <RadioCards
            options={rules.resolutions.map((value) => ({ value, label: value }))}
            registration={register('aspect_resolution')}
            columns={rules.resolutions.length === 3 ? 'grid-cols-3' : 'grid-cols-2'}
            compact
          />
        </FieldGroup>
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <FieldGroup
          role="radiogroup"
          legend="Duration"
          errorId="duration-error"
          error={errors.duration?.message}
          hintId="duration-hint"
          hint={
            rules.durations.length === 1 ? `Fixed at ${rules.durations[0]} s with ${rules.label}.` : undefined
          }
        >
          <RadioCards
            options={rules.durations.map((seconds) => ({ value: String(seconds), label: `${seconds} s` }))}
            registration={register('duration')}
            columns="grid-cols-3"
            compact
          />
        </FieldGroup>
        <CountField
          label="Number of videos"
          error={errors.generate_count?.message}
          hint={`${BOUNDS.imageToVideoGenerateCount.min} to ${BOUNDS.imageToVideoGenerateCount.max}; one task per video.`}
          min={BOUNDS.imageToVideoGenerateCount.min}
          max={BOUNDS.imageToVideoGenerateCount.max}
          registration={register('generate_count', { valueAsNumber: true })}
        />
      </div>

      {rules.audio ? (
        <Controller
          control={control}
          name="generate_audio"
          render={({ field }) => (
            <Switch
              label="Audio"
              description="Adds sound to the video, and speaks any Speak “…” narration in the prompt."
              checked={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
      ) : (
        <p className={hintClass}>Model KL makes videos without audio.</p>
      )}
      {errors.generate_audio?.message && <FieldError>{errors.generate_audio.message}</FieldError>}
    </CreationFormLayout>
  );
}
