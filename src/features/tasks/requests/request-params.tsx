// The parameters a request sent, for a person: each field by its name on the form ("Number of
// images: 4"), lists one per line, yes and no for switches; with "Copy as JSON" for a script or a
// ticket. What the record holds is already without secrets (the server drops them when it records).
import { CopyButton } from '@/components/ui/copy-button';

/** The forms' words for the request's fields; a field the console does not know keeps its own name. */
const FIELD_LABELS: Record<string, string> = {
  prompt: 'Prompt',
  model: 'Model',
  module: 'Mode',
  image_ratio: 'Aspect ratio',
  aspect_ratio: 'Aspect ratio',
  aspect_resolution: 'Resolution',
  image_quality: 'Quality',
  generate_count: 'Number of results',
  reference_images: 'Reference images',
  image_url: 'Start frame',
  end_image_url: 'End frame',
  duration: 'Duration (seconds)',
  generate_audio: 'Audio',
  video_url: 'Video',
  target_languages: 'Languages',
  speaker_num: 'Speakers',
  translate_audio_only: 'Translate the audio only',
  enable_dynamic_duration: 'Dynamic duration',
  enable_caption: 'Captions',
  name: 'Name',
  callback_url: 'Callback URL',
};

function valueText(value: unknown): string[] {
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  if (Array.isArray(value)) return value.length ? value.map((item) => valueText(item).join(', ')) : ['None'];
  if (value === null || value === undefined || value === '') return ['—'];
  if (typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

export function RequestParams({ params }: { params: Record<string, unknown> }) {
  const entries = Object.entries(params);
  if (!entries.length) return null;
  return (
    <section aria-labelledby="request-params-heading" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="request-params-heading" className="text-base font-semibold">
          Parameters sent
        </h2>
        <CopyButton text={JSON.stringify(params, null, 2)} label="Copy as JSON" size="sm" />
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 rounded-xl border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-[minmax(10rem,max-content)_1fr] dark:border-zinc-800 dark:bg-zinc-900">
        {entries.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-medium text-zinc-600 dark:text-zinc-400">{FIELD_LABELS[key] ?? key}</dt>
            <dd className="min-w-0 break-words text-zinc-900 dark:text-zinc-100">
              {valueText(value).map((line, index) => (
                <span key={index} className="block">
                  {line}
                </span>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
