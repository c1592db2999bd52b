import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface RadioCardOption<V extends string> {
  value: V;
  label: string;
  description?: string;
  /** A drawing above the label (e.g. an aspect ratio's shape). */
  visual?: ReactNode;
}

/**
 * Native radio inputs styled as cards: arrow keys, form reset and focus-on-error all behave as
 * the platform does. The group's name comes from the enclosing fieldset's legend.
 */
export function RadioCards<V extends string>({
  options,
  registration,
  describedBy,
  columns,
  compact,
}: {
  options: readonly RadioCardOption<V>[];
  registration: UseFormRegisterReturn;
  describedBy?: string;
  columns: string;
  compact?: boolean;
}) {
  const id = useId();
  return (
    <div className={`grid gap-2 ${columns}`}>
      {options.map((option) => (
        <label
          key={option.value}
          className={`group relative flex cursor-pointer flex-col rounded-lg border border-zinc-300 bg-white text-sm transition-colors hover:border-zinc-400 has-checked:border-indigo-600 has-checked:bg-indigo-50 has-checked:ring-1 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:border-zinc-500 dark:has-checked:border-indigo-400 dark:has-checked:bg-indigo-950/60 dark:has-checked:ring-indigo-400 ${
            compact ? 'items-center px-2 py-2 text-center' : 'px-3 py-2.5'
          }`}
        >
          {/* Named by its label alone; the one-line description is read as its description. */}
          <input
            type="radio"
            value={option.value}
            aria-labelledby={`${id}-${option.value}`}
            aria-describedby={
              [option.description && `${id}-${option.value}-d`, describedBy].filter(Boolean).join(' ') ||
              undefined
            }
            className="sr-only"
            {...registration}
          />
          {option.visual}
          <span
            id={`${id}-${option.value}`}
            className="font-medium text-zinc-900 group-has-checked:text-indigo-800 dark:text-zinc-100 dark:group-has-checked:text-indigo-200"
          >
            {option.label}
          </span>
          {option.description && (
            <span
              id={`${id}-${option.value}-d`}
              // Compact cards are narrow on a phone: the drawing carries the meaning there.
              className={`mt-0.5 text-xs text-zinc-600 dark:text-zinc-400 ${compact ? 'hidden sm:block' : ''}`}
            >
              {option.description}
            </span>
          )}
        </label>
      ))}
    </div>
  );
}
