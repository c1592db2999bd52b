import type { UseFormRegisterReturn } from 'react-hook-form';
import { IMAGE_RATIOS } from '@/api/core/rules';
import { RadioCards, type RadioCardOption } from '@/components/ui/radio-cards';

const BOX = 36;

/** The ratio drawn to scale inside a BOX×BOX square, so the ten shapes compare at a glance. */
function RatioShape({ ratio }: { ratio: string }) {
  const [w = 1, h = 1] = ratio.split(':').map(Number);
  const scale = BOX / Math.max(w, h);
  const width = Math.round(w * scale);
  const height = Math.round(h * scale);
  return (
    <span aria-hidden="true" className="mb-1.5 flex size-10 items-center justify-center">
      <span
        style={{ width, height }}
        className="rounded-[3px] border-2 border-zinc-400 bg-zinc-100 transition-colors group-has-checked:border-indigo-600 group-has-checked:bg-indigo-200/70 dark:border-zinc-500 dark:bg-zinc-800 dark:group-has-checked:border-indigo-400 dark:group-has-checked:bg-indigo-900"
      />
    </span>
  );
}

const HINTS: Partial<Record<(typeof IMAGE_RATIOS)[number], string>> = {
  '1:1': 'Square',
  '9:16': 'Phone',
  '16:9': 'Wide',
  '21:9': 'Cinema',
};

const OPTIONS: RadioCardOption<(typeof IMAGE_RATIOS)[number]>[] = IMAGE_RATIOS.map((ratio) => ({
  value: ratio,
  label: ratio,
  visual: <RatioShape ratio={ratio} />,
  description:
    HINTS[ratio] ?? (Number(ratio.split(':')[0]) > Number(ratio.split(':')[1]) ? 'Landscape' : 'Portrait'),
}));

export function AspectRatioPicker({
  registration,
  describedBy,
}: {
  registration: UseFormRegisterReturn;
  describedBy?: string;
}) {
  return (
    <RadioCards
      options={OPTIONS}
      registration={registration}
      describedBy={describedBy}
      columns="grid-cols-5"
      compact
    />
  );
}
