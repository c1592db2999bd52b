import { useFormState, useWatch, type Control } from 'react-hook-form';
import { parseHttpUrl } from '@/api/core/http-url';
import { BOUNDS } from '@/api/core/rules';
import { FormSummary, rangeProblem } from '@/forms/form-summary';
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
    <FormSummary
      frame={{
        boxClass: 'h-40',
        width: Math.round(w * scale),
        height: Math.round(h * scale),
        children: ratio,
      }}
      rows={[
        { term: 'Images', value: images ? `${images} (one task each)` : '—', problem: countProblem },
        { term: 'Quality', value: quality },
        { term: 'Aspect ratio', value: ratio },
        { term: 'Mode', value: mode ? MODE_NAMES[mode] : '—' },
        { term: 'Reference images', value: refs || 'None', problem: refsProblem },
      ]}
    />
  );
}
