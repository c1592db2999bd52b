import { useId, type ReactNode } from 'react';
import { errorTextClass, hintClass } from './styles';

interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

interface FieldProps {
  label: ReactNode;
  /** One line under the label explaining the field in plain words. */
  hint?: ReactNode;
  error?: string;
  /** Right-aligned next to the label, e.g. a live character counter. */
  aside?: ReactNode;
  /** Ids of further elements that describe the control (e.g. a counter), in reading order. */
  describedBy?: string[];
  optional?: boolean;
  id?: string;
  children: (control: FieldControlProps) => ReactNode;
  className?: string;
}

export const describedBy = (...ids: (string | false | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;

/**
 * One labelled control with its hint and error. The control receives `id`, `aria-invalid` and an
 * `aria-describedby` that lists the error first, so a screen reader announces what is wrong before
 * the hint.
 */
export function Field({
  label,
  hint,
  error,
  aside,
  describedBy: extra = [],
  optional,
  id,
  children,
  className,
}: FieldProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-baseline justify-between gap-3">
        <label htmlFor={controlId} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
          {label}
          {optional && (
            <span className="ml-1.5 text-xs font-normal text-zinc-500 dark:text-zinc-400">optional</span>
          )}
        </label>
        {aside}
      </div>
      {children({
        id: controlId,
        'aria-describedby': describedBy(error && errorId, hint !== undefined && hintId, ...extra),
        'aria-invalid': error ? true : undefined,
      })}
      <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
}

/** The error (when there is one) and the hint under a control or group, with the ids it points to. */
function FieldMessages({
  error,
  errorId,
  hint,
  hintId,
}: {
  error?: string;
  errorId: string;
  hint?: ReactNode;
  hintId?: string;
}) {
  return (
    <>
      {error && <FieldError id={errorId}>{error}</FieldError>}
      {hint !== undefined && (
        <p id={hintId} className={`mt-1.5 ${hintClass}`}>
          {hint}
        </p>
      )}
    </>
  );
}

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className={`mt-1.5 flex items-start gap-1.5 ${errorTextClass}`}>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 size-4 shrink-0">
        <path
          fillRule="evenodd"
          d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-8-5a.75.75 0 0 1 .75.75v4.5a.75.75 0 0 1-1.5 0v-4.5A.75.75 0 0 1 10 5Zm0 10a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
          clipRule="evenodd"
        />
      </svg>
      <span>{children}</span>
    </p>
  );
}

/** A group of controls (radios, checkboxes) named by its legend. */
export function FieldGroup({
  legend,
  hint,
  error,
  errorId,
  hintId,
  children,
  className,
  aside,
  role,
}: {
  /** `radiogroup` for a set of radios, so assistive tech announces it as one choice. */
  role?: 'radiogroup';
  legend: ReactNode;
  hint?: ReactNode;
  error?: string;
  errorId: string;
  hintId?: string;
  children: ReactNode;
  className?: string;
  aside?: ReactNode;
}) {
  return (
    <fieldset
      role={role}
      className={`min-w-0 ${className ?? ''}`}
      aria-describedby={describedBy(error && errorId, hint !== undefined && hintId)}
    >
      {/* The legend must be the fieldset's first child to name the group. */}
      <legend className="float-left mb-1.5 text-sm font-medium text-zinc-900 dark:text-zinc-100">
        {legend}
      </legend>
      {aside && <div className="float-right mb-1.5">{aside}</div>}
      <div className="clear-both">
        {children}
        <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
      </div>
    </fieldset>
  );
}
