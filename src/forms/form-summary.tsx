// The "What you will get" card beside each creation form: a line saying what one submission creates,
// an optional frame drawn at the output's shape, the form's values as rows and a closing note. A row
// shows the value as the form will send it, or, when the value would be refused, "Needs fixing" in
// the error colour with the field's message, never the refused value repeated as if it were fine
// ("9 (one task each)", "Speakers -1").
import { useId, type ReactNode } from 'react';
import { cardClass } from '@/components/ui/styles';

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

/** One row of the card: a term, its value, and what is wrong with it when the form would refuse it. */
export interface SummaryLine {
  term: string;
  value: ReactNode;
  problem?: string;
}

/** The output drawn at its shape (in pixels) inside a grey box of `boxClass`'s height. */
export interface SummaryFrame {
  width: number;
  height: number;
  boxClass: string;
  children: ReactNode;
}

/** The card itself, fed by each form's own rows. */
export function FormSummary({
  lead,
  frame,
  rows,
  note,
}: {
  lead?: ReactNode;
  frame?: SummaryFrame;
  rows: SummaryLine[];
  note?: string;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`${cardClass} p-4`}>
      <h2 id={titleId} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        What you will get
      </h2>
      {lead}
      {frame && (
        <div
          className={`mt-3 flex ${frame.boxClass} items-center justify-center rounded-lg bg-zinc-100 dark:bg-zinc-800/70`}
        >
          <div
            aria-hidden="true"
            style={{ width: frame.width, height: frame.height }}
            className="relative flex items-center justify-center overflow-hidden rounded-md border-2 border-dashed border-indigo-400 bg-white text-xs font-medium text-indigo-700 dark:border-indigo-500 dark:bg-zinc-900 dark:text-indigo-300"
          >
            {frame.children}
          </div>
        </div>
      )}
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {rows.map((row) => (
          <SummaryRow key={row.term} term={row.term} problem={row.problem}>
            {row.value}
          </SummaryRow>
        ))}
      </dl>
      {note && (
        <p className="mt-3 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
          {note}
        </p>
      )}
    </section>
  );
}
