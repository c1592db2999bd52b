// Where a server error belongs on a form: 100001/100002 on the field the service's msg names, the
// rest in a banner. Kept apart from the forms so both use the same rule.
import type { KeyboardEvent } from 'react';
import type { ApiError } from '@/api/errors';

/** The form field for a request field named by the service, if the form has it. */
export function fieldForServerError<F extends string>(error: ApiError, fields: readonly F[]): F | undefined {
  if (error.kind !== 'validation' && error.kind !== 'bounds') return undefined;
  const field = error.field;
  return field && (fields as readonly string[]).includes(field) ? (field as F) : undefined;
}

/** The message shown under a field for a server-side rejection: the service's own words. */
export function serverFieldMessage(error: ApiError) {
  const bounds = error.bounds ? ` Allowed: ${error.bounds.min} to ${error.bounds.max}.` : '';
  return `The service refused this value: ${error.msg.replace(/[.\s]+$/, '')}.${bounds}`;
}

/** Ctrl+Enter / Cmd+Enter submits from anywhere inside the form. */
export function submitOnModEnter(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}
