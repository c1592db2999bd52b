import { useFormState, useWatch, type Control } from 'react-hook-form';
import { BOUNDS } from '@/api/rules';
import { rangeProblem, SummaryRow } from '@/forms/summary-row';
import { IMAGE_TO_VIDEO_MODE_RULES } from '@/api/image-to-video-rules';
import { parseHttpUrl } from '@/api/http-url';
import { thumbnailSrc } from '@/api/preview-src';
import { cardClass } from '@/components/ui/styles';
import type { VideoFormValues } from './video-form-model';

const safeHttpUrl = (value: string | undefined) => (value ? parseHttpUrl(value)?.href : undefined);

const ORIENTATION = { '16:9': 'landscape', '9:16': 'portrait' } as const;
const MODE_LABELS = {
  start_frame: 'Start frame',
  reference: 'Reference images',
  multi_reference: 'Multi-reference',
} as const;

/** What one submission will create: count × duration × resolution × orientation, audio or not. */
export function VideoSummary({ control }: { control: Control<VideoFormValues, unknown, unknown> }) {
  const [mode, ratio, resolution, duration, audio, count, endFrame, startFrame] = useWatch({
    control,
    name: [
      'mode',
      'aspect_ratio',
      'aspect_resolution',
      'duration',
      'generate_audio',
      'generate_count',
      'end_image_url',
      'image_url',
    ],
  });
  const poster = safeHttpUrl(startFrame?.trim());
  const rules = IMAGE_TO_VIDEO_MODE_RULES[mode] ?? IMAGE_TO_VIDEO_MODE_RULES.start_frame;
  const videos = Number.isInteger(count) && count >= 1 && count <= 4 ? count : undefined;
  const { errors } = useFormState({ control, name: 'generate_count' });
  const countProblem =
    errors.generate_count?.message ??
    rangeProblem(count, BOUNDS.imageToVideoGenerateCount, 'Number of videos');
  const withAudio = rules.audio && audio;
  const [w, h] = ratio === '16:9' ? [112, 63] : [45, 80];
  return (
    <section aria-labelledby="video-summary-title" className={`${cardClass} p-4`}>
      <h2 id="video-summary-title" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        What you will get
      </h2>
      <p className="mt-1 text-sm font-medium text-zinc-900 tabular-nums dark:text-zinc-100">
        {videos ? `${videos} ×` : '— ×'} {duration} s × {resolution} × {ORIENTATION[ratio]} ({ratio}),{' '}
        {withAudio ? 'with audio' : 'no audio'}
      </p>
      <div className="mt-3 flex h-28 items-center justify-center rounded-lg bg-zinc-100 dark:bg-zinc-800/70">
        <div
          aria-hidden="true"
          style={{ width: w, height: h }}
          className="relative flex items-center justify-center overflow-hidden rounded-md border-2 border-dashed border-indigo-400 bg-white text-xs font-medium text-indigo-700 dark:border-indigo-500 dark:bg-zinc-900 dark:text-indigo-300"
        >
          {/* The start frame as the video will frame it (cropped to the chosen orientation). */}
          {rules.startFrame && poster && (
            <img
              src={thumbnailSrc(poster)}
              alt=""
              referrerPolicy="no-referrer"
              className="absolute inset-0 size-full object-cover"
            />
          )}
          <span className="relative">▶</span>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <SummaryRow term="Videos" problem={countProblem}>
          {videos ? `${videos} (one task each)` : '—'}
        </SummaryRow>
        <dt className="text-zinc-600 dark:text-zinc-400">Model</dt>
        <dd className="text-right font-medium">{rules.model}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Mode</dt>
        <dd className="text-right font-medium">
          {MODE_LABELS[mode]}
          {rules.startFrame && endFrame?.trim() ? ' + end frame' : ''}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Duration</dt>
        <dd className="text-right font-medium">{duration} s</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Size</dt>
        <dd className="text-right font-medium">
          {resolution} · {ratio}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Audio</dt>
        <dd className="text-right font-medium">{withAudio ? 'Yes' : rules.audio ? 'No' : 'Not with KL'}</dd>
      </dl>
      <p className="mt-3 border-t border-zinc-200 pt-3 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        Videos can take up to 20 minutes. Results are kept by the service for about 7 days.
      </p>
    </section>
  );
}
