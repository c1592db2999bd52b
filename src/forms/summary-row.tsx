// A row of a form's "What you will get" card: the value as the form will send it, or, when the
// value would be refused, "Needs fixing" in the error colour with the field's message, never the
// refused value repeated as if it were fine ("9 (one task each)", "Speakers -1").
import type { ReactNode } from 'react';

/**
 * What is wrong with a whole number outside `min`..`max`, in the request schema's words (`between`
 * in src/api/schemas.ts), without loading zod. A blank field (NaN) is not judged here: the user may
 * be clearing it to type; the form's own check says so when the field is left.
 */
export function rangeProblem(
  value: number | undefined,
  { min, max }: { min: number; max: number },
  label: string,
): string | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  if (!Number.isInteger(value)) return `${label} must be a whole number`;
  if (value < min) return `${label} must be at least ${min}`;
  if (value > max) return `${label} must be at most ${max}`;
  return undefined;
}

/** One term and its value; with a `problem`, the value is flagged instead of shown. */
export function SummaryRow({
  term,
  problem,
  children,
}: {
  term: string;
  problem?: string;
  children: ReactNode;
}) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      {problem ? (
        <dd className="text-right font-medium text-red-700 dark:text-red-400">
          Needs fixing
          <span className="sr-only">: </span>
          <span className="mt-0.5 block text-xs font-normal">{problem}</span>
        </dd>
      ) : (
        <dd className="text-right font-medium">{children}</dd>
      )}
    </>
  );
}
