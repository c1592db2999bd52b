import { useFormState, useWatch, type Control } from 'react-hook-form';
import { BOUNDS } from '@/api/core/rules';
import { FormSummary, rangeProblem } from '@/forms/form-summary';
import { IMAGE_TO_VIDEO_MODE_RULES } from '@/api/image-to-video/image-to-video-rules';
import { parseHttpUrl } from '@/api/core/http-url';
import { thumbnailSrc } from '@/api/preview-src';
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
    <FormSummary
      lead={
        <p className="mt-1 text-sm font-medium text-zinc-900 tabular-nums dark:text-zinc-100">
          {videos ? `${videos} ×` : '— ×'} {duration} s × {resolution} × {ORIENTATION[ratio]} ({ratio}),{' '}
          {withAudio ? 'with audio' : 'no audio'}
        </p>
      }
      frame={{
        boxClass: 'h-28',
        width: w,
        height: h,
        children: (
          <>
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
          </>
        ),
      }}
      rows={[
        { term: 'Videos', value: videos ? `${videos} (one task each)` : '—', problem: countProblem },
        { term: 'Model', value: rules.model },
        {
          term: 'Mode',
          value: `${MODE_LABELS[mode]}${rules.startFrame && endFrame?.trim() ? ' + end frame' : ''}`,
        },
        { term: 'Duration', value: `${duration} s` },
        { term: 'Size', value: `${resolution} · ${ratio}` },
        { term: 'Audio', value: withAudio ? 'Yes' : rules.audio ? 'No' : 'Not with KL' },
      ]}
      note="Videos can take up to 20 minutes. Results are kept by the service for about 7 days."
    />
  );
}
