import { Controller, useForm, useWatch } from 'react-hook-form';
import { BOUNDS, CONSOLE_INBOX, TARGET_LANGUAGES } from '@/api/core/rules';
import { CountField } from '@/forms/count-field';
import type { VideoTranslateRequest } from '@/api/schemas';
import { useConsoleInfo } from '@/api/console-info';
import { CreationFormLayout } from '@/forms/creation-form-layout';
import { Field } from '@/components/ui/field';
import { clearDraft, loadDraft, useDraftAutosave } from '@/forms/form-draft';
import { fieldForServerError, serverFieldMessage } from '@/forms/form-errors';
import { inputClass } from '@/components/ui/styles';
import { Switch } from '@/components/ui/switch';
import { lazyZodResolver } from '@/forms/lazy-zod-resolver';
import { submitProps, useGuardedSubmit } from '@/forms/use-guarded-submit';
import { CallbackUrlField } from './callback-url-field';
import { LanguagePicker } from './language-picker';
import { createTranslations, useTargetLanguages } from './use-create-translations';
import {
  VIDEO_FORM_DEFAULTS,
  VIDEO_FORM_FIELDS,
  toVideoRequest,
  type VideoFormInput,
  type VideoFormOutput,
} from './video-form-model';
import { VideoNameField } from './video-name-field';
import { VideoPreview } from './video-preview';
import { SET_UPLOADED } from '@/forms/uploads/single-file';
import { useUploadTracker } from '@/forms/uploads/upload-context';
import { VideoFileControls } from './video-file-controls';
import { VideoSummary } from './video-summary';

export const VIDEO_DRAFT_KEY = 'video-translate';

const SWITCHES = [
  {
    name: 'translate_audio_only',
    label: 'Translate audio only',
    description: 'Only the speech track is translated; faces are left as they are.',
  },
  {
    name: 'enable_dynamic_duration',
    label: 'Dynamic duration',
    description:
      'Stretches or shortens segments so dialogue flows across languages of different speaking speeds.',
  },
  {
    name: 'enable_caption',
    label: 'Generate captions',
    description: 'Also produces a caption file for each language.',
  },
] as const;

const resolver = lazyZodResolver<VideoFormInput, VideoFormOutput>(() =>
  import('./schema/video-form-schema').then((m) => m.videoFormSchema),
);

export function VideoTranslateForm() {
  const form = useForm<VideoFormInput, unknown, VideoFormOutput>({
    resolver,
    defaultValues: loadDraft(VIDEO_DRAFT_KEY, VIDEO_FORM_DEFAULTS),
    // Checked when a field is first left, then on every change: an error clears the moment its
    // value is valid, so nothing is left to disappear (and shift the layout) when the field is left.
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, control, setError, setValue, formState } = form;
  const uploads = useUploadTracker();
  const { errors } = formState;
  useDraftAutosave(form, VIDEO_DRAFT_KEY);
  const languages = useTargetLanguages();
  const inboxUrl = useConsoleInfo().data?.callbackAddress;
  const videoUrl = useWatch({ control, name: 'video_url' }) ?? '';

  const guarded = useGuardedSubmit(
    (body: VideoTranslateRequest) => createTranslations(body, uploads.nameOf),
    (error) => {
      const field = fieldForServerError(error, VIDEO_FORM_FIELDS);
      if (field)
        setError(field, { type: 'server', message: serverFieldMessage(error) }, { shouldFocus: true });
      return Boolean(field);
    },
  );
  const { submit, result, reset } = guarded;
  const onValid = (values: VideoFormOutput) => submit(toVideoRequest(values));

  function resetToDefaults() {
    form.reset({ ...VIDEO_FORM_DEFAULTS, callback_url: inboxUrl ? CONSOLE_INBOX : '' });
    clearDraft(VIDEO_DRAFT_KEY);
    reset();
  }

  return (
    <CreationFormLayout
      titleId="video-form-title"
      title="Video translation settings"
      {...submitProps(handleSubmit(onValid), guarded, formState.isSubmitting)}
      submitLabel="Translate video"
      onReset={resetToDefaults}
      onEngage={resolver.preload}
      uploads={uploads}
      kind="video_translate"
      created={
        result && {
          tasks: result.tasks.map((task) => ({ id: task.task_id, label: task.language })),
          curl: result.curl,
          note: result.historyNote,
        }
      }
      summary={<VideoSummary control={control} />}
    >
      <Field
        label="Video URL"
        error={errors.video_url?.message}
        hint="A public http(s) link to the video file to translate, or a video of yours uploaded above."
      >
        {(props) => (
          <VideoFileControls
            slot="video_url"
            url={videoUrl}
            onUploaded={(url) => setValue('video_url', url, SET_UPLOADED)}
          >
            <input
              {...props}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/interview.mp4"
              className={inputClass}
              {...register('video_url', { setValueAs: (v: string) => v.trim() })}
            />
            <VideoPreview url={videoUrl} />
          </VideoFileControls>
        )}
      </Field>

      <Controller
        control={control}
        name="target_languages"
        render={({ field }) => (
          <LanguagePicker
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            options={languages.data?.length ? languages.data : TARGET_LANGUAGES}
            source={languages.isPending ? 'loading' : languages.data?.length ? 'service' : 'builtin'}
            error={errors.target_languages?.message ?? errors.target_languages?.root?.message}
          />
        )}
      />

      <CountField
        label="Number of speakers"
        error={errors.speaker_num?.message}
        hint="How many people speak in the video. 0 lets the service detect it."
        min={BOUNDS.speakerNum.min}
        registration={register('speaker_num', { valueAsNumber: true })}
        narrow
      />

      <div className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {SWITCHES.map((item) => (
          <Controller
            key={item.name}
            control={control}
            name={item.name}
            render={({ field }) => (
              <Switch
                label={item.label}
                description={item.description}
                checked={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
        ))}
      </div>

      <VideoNameField control={control} register={register} error={errors.name?.message} />

      <CallbackUrlField form={form} />
    </CreationFormLayout>
  );
}
