import { useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { BOUNDS } from '@/api/core/rules';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';
import { OutputNames } from './output-names';
import type { VideoFormInput } from './video-form-model';

/** Video name with its counter and a live preview of each translated video's name. */
export function VideoNameField({
  control,
  register,
  error,
}: {
  control: Control<VideoFormInput, unknown, unknown>;
  register: UseFormRegister<VideoFormInput>;
  error?: string;
}) {
  const [name = '', languages = []] = useWatch({ control, name: ['name', 'target_languages'] });
  const over = name.length > BOUNDS.videoNameMaxLength;
  return (
    <Field
      label="Video name"
      optional
      error={error}
      describedBy={['video-name-counter', 'video-name-outputs']}
      aside={
        <span
          id="video-name-counter"
          className={`text-xs tabular-nums ${over ? 'font-semibold text-red-700 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
        >
          {name.length} / {BOUNDS.videoNameMaxLength}
        </span>
      }
    >
      {(props) => (
        <>
          <input
            {...props}
            autoComplete="off"
            placeholder="product-launch"
            className={inputClass}
            {...register('name')}
          />
          <OutputNames id="video-name-outputs" languages={languages} name={name} />
        </>
      )}
    </Field>
  );
}
