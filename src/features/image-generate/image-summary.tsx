import { useWatch, type Control } from 'react-hook-form';
import { cardClass } from '@/components/ui/styles';
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
  const images = Number.isInteger(count) && (count ?? 0) > 0 ? (count as number) : undefined;
  const refs = (references ?? []).filter((row) => row?.url?.trim()).length;
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
        <dt className="text-zinc-600 dark:text-zinc-400">Images</dt>
        <dd className="text-right font-medium">{images ? `${images} (one task each)` : '—'}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Quality</dt>
        <dd className="text-right font-medium">{quality}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Aspect ratio</dt>
        <dd className="text-right font-medium">{ratio}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Mode</dt>
        <dd className="text-right font-medium">{mode ? MODE_NAMES[mode] : '—'}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Reference images</dt>
        <dd className="text-right font-medium">{refs || 'None'}</dd>
      </dl>
    </section>
  );
}
