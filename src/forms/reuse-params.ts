// "Use this prompt": a request's parameters back into a form. Only the fields the form has, and
// only values of the type the form holds there (a request from an older console, or one made by
// hand, may carry anything); the rest of the form stays as it is.
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

export function fillFromParams<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, 'setValue' | 'setFocus'>,
  defaults: T,
  params: Record<string, unknown>,
  focus: Path<T>,
): void {
  for (const [key, initial] of Object.entries(defaults)) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    const same =
      typeof value === typeof initial &&
      (typeof value !== 'object' || Array.isArray(value) === Array.isArray(initial));
    if (!same || (typeof value === 'object' && !Array.isArray(value))) continue;
    // A list of URLs where the form keeps rows of {url}.
    const fitted =
      Array.isArray(value) && Array.isArray(initial)
        ? value.filter((item): item is string => typeof item === 'string').map((url) => ({ url }))
        : value;
    form.setValue(key as Path<T>, fitted as PathValue<T, Path<T>>, {
      shouldDirty: true,
      shouldValidate: false,
    });
  }
  form.setFocus(focus);
}
