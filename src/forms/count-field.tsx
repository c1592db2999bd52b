// The forms' "Number of …" fields: a whole number typed with the numeric keyboard, kept between the
// request schema's bounds by the browser's own stepper, and read by the form as a number.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';

export function CountField({
  label,
  hint,
  error,
  min,
  max,
  registration,
  narrow = false,
}: {
  label: string;
  hint: string;
  error: string | undefined;
  min: number;
  max?: number;
  /** `register(name, { valueAsNumber: true })` of the field. */
  registration: UseFormRegisterReturn;
  /** Narrow at every width (a field on its own line), not only on phones (a field in a grid cell). */
  narrow?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          className={`${inputClass} max-w-40 tabular-nums${narrow ? '' : ' sm:max-w-none'}`}
          {...registration}
        />
      )}
    </Field>
  );
}
