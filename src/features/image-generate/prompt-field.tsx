import type { ReactNode } from 'react';
import { useWatch, type Control, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import { BOUNDS } from '@/api/core/rules';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';

/**
 * The prompt with a live `n / 1000` counter. No maxLength on the textarea: typing past the limit
 * stays visible (and is refused with a message) instead of being cut silently.
 */
export function PromptField<T extends FieldValues>({
  control,
  register,
  error,
  hint = 'Describe the image: subject, setting, style, lighting. Plain sentences work best.',
  placeholder = 'A lighthouse on a cliff at dawn, soft golden light, watercolor',
}: {
  control: Control<T, unknown, unknown>;
  register: UseFormRegister<T>;
  error?: string;
  hint?: ReactNode;
  placeholder?: string;
}) {
  const name = 'prompt' as Path<T>;
  const prompt = (useWatch({ control, name }) as string | undefined) ?? '';
  // Counted as sent: the request schema trims the prompt.
  const length = prompt.trim().length;
  const over = length - BOUNDS.promptMaxLength;
  return (
    <Field
      label="Prompt"
      error={error}
      hint={hint}
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
          placeholder={placeholder}
          className={`${inputClass} min-h-32 resize-y leading-relaxed`}
          {...register(name)}
        />
      )}
    </Field>
  );
}
