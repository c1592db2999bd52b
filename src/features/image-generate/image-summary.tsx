import { useFormState, useWatch, type Control } from 'react-hook-form';
import { parseHttpUrl } from '@/api/http-url';
import { BOUNDS } from '@/api/rules';
import { cardClass } from '@/components/ui/styles';
import { rangeProblem, SummaryRow } from '@/forms/summary-row';
import type { ImageFormInput } from './image-form-model';

const MODE_NAMES = { std: 'Standard', pro: 'Professional' } as const;

/** The output frame drawn at the chosen ratio, and what one submission will create. */
export function ImageSummary({ control }: { control: Control<ImageFormInput, unknown, unknown> }) {
  const [ratio, count, quality, mode, references] = useWatch({
    control,
    name: ['image_ratio', 'generate_count', 'image_quality', 'module', 'reference_images'],
  });
  const [w = 1, h = 1] = (ratio ?? '1:1').split(':').map(Number);
  const scale = 140 / Math.max(w, h);
  const { errors } = useFormState({ control, name: ['generate_count', 'reference_images'] });
  const errorRows = (Array.isArray(errors.reference_images) ? errors.reference_images : []) as {
    url?: { message?: string };
  }[];
  const countProblem =
    errors.generate_count?.message ?? rangeProblem(count, BOUNDS.generateCount, 'Number of images');
  const images = Number.isInteger(count) && (count ?? 0) > 0 ? (count as number) : undefined;
  const filled = (references ?? []).map((row) => row?.url?.trim() ?? '').filter(Boolean);
  // Only the links that will be sent count: an empty row or one the form refuses does not.
  const rowRefused = (index: number) => Boolean(errorRows[index]?.url?.message);
  const refs = (references ?? []).filter((row, index) => {
    const url = row?.url?.trim() ?? '';
    return url && parseHttpUrl(url) && !rowRefused(index);
  }).length;
  // A row is counted as it will be sent; a row the form refuses (or that is no http(s) URL yet) is flagged.
  const rowMessages = errorRows.map((row) => row?.url?.message).filter(Boolean);
  const refused = Math.max(rowMessages.length, filled.filter((url) => !parseHttpUrl(url)).length);
  const rowMessage = rowMessages[0] ?? 'Enter an http:// or https:// image URL';
  const refsProblem =
    errors.reference_images?.message ??
    (refused > 0
      ? `${refs ? `${refs} counted; ` : ''}${refused > 1 ? `${refused} images: ` : ''}${rowMessage}`
      : undefined);
  return (
    <section aria-labelledby="image-summary-title" className={`${cardClass} p-4`}>
      <h2 id="image-summary-title" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        What you will get
      </h2>
      <div className="mt-3 flex h-40 items-center justify-center rounded-lg bg-zinc-100 dark:bg-zinc-800/70">
        <div
          aria-hidden="true"
          style={{ width: Math.round(w * scale), height: Math.round(h * scale) }}
          className="flex items-center justify-center rounded-md border-2 border-dashed border-indigo-400 bg-white text-xs font-medium text-indigo-700 dark:border-indigo-500 dark:bg-zinc-900 dark:text-indigo-300"
        >
          {ratio}
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <SummaryRow term="Images" problem={countProblem}>
          {images ? `${images} (one task each)` : '—'}
        </SummaryRow>
        <dt className="text-zinc-600 dark:text-zinc-400">Quality</dt>
        <dd className="text-right font-medium">{quality}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Aspect ratio</dt>
        <dd className="text-right font-medium">{ratio}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Mode</dt>
        <dd className="text-right font-medium">{mode ? MODE_NAMES[mode] : '—'}</dd>
        <SummaryRow term="Reference images" problem={refsProblem}>
          {refs || 'None'}
        </SummaryRow>
      </dl>
    </section>
  );
}
