// "Use this prompt": a request's parameters back into a form (what it takes of them: ./prefill.ts);
// the rest of the form stays as it is.
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { valuesFromParams } from './prefill';

export function fillFromParams<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, 'setValue' | 'setFocus'>,
  defaults: T,
  params: Record<string, unknown>,
  focus: Path<T>,
): void {
  for (const [key, value] of Object.entries(valuesFromParams(defaults, params))) {
    form.setValue(key as Path<T>, value as PathValue<T, Path<T>>, {
      shouldDirty: true,
      shouldValidate: false,
    });
  }
  form.setFocus(focus);
}
