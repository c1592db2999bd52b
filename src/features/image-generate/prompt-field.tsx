import { useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { BOUNDS } from '@/api/rules';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';
import type { ImageFormInput } from './image-form-model';

/**
 * The prompt with a live `n / 1000` counter. No maxLength on the textarea: typing past the limit
 * stays visible (and is refused with a message) instead of being cut silently.
 */
export function PromptField({
  control,
  register,
  error,
}: {
  control: Control<ImageFormInput, unknown, unknown>;
  register: UseFormRegister<ImageFormInput>;
  error?: string;
}) {
  const prompt = useWatch({ control, name: 'prompt' }) ?? '';
  // Counted as sent: the request schema trims the prompt.
  const length = prompt.trim().length;
  const over = length - BOUNDS.promptMaxLength;
  return (
    <Field
      label="Prompt"
      error={error}
      hint="Describe the image: subject, setting, style, lighting. Plain sentences work best."
      describedBy={['prompt-counter']}
      aside={
        <span
          id="prompt-counter"
          className={`text-xs tabular-nums ${over > 0 ? 'font-semibold text-red-700 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400'}`}
        >
          {length} / {BOUNDS.promptMaxLength}
          {over > 0 && ` · ${over} over the limit`}
        </span>
      }
    >
      {(props) => (
        <textarea
          {...props}
          rows={5}
          placeholder="A lighthouse on a cliff at dawn, soft golden light, watercolor"
          className={`${inputClass} min-h-32 resize-y leading-relaxed`}
          {...register('prompt')}
        />
      )}
    </Field>
  );
}
