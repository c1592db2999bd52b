// What a task was made from, as media: the prompt as text, the reference images and the start and
// end frames as pictures, the source video of a translation as a player. Support sees a failed
// task's inputs without reading the raw request. Links come from the request (anyone's text), so
// only http(s) ones are shown; another host's image comes through the console's preview.
import { thumbnailSrc } from '@/api/preview-src';
import { cardClass } from '@/components/ui/styles';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { mediaLink } from '@/features/tasks/shared/safe-url';

interface Picture {
  label: string;
  url: string;
}

function urlsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((entry) => (typeof entry === 'string' ? entry : (entry as { url?: unknown } | null)?.url))
    .map((entry) => mediaLink(entry).url)
    .filter((url): url is string => Boolean(url));
}

function picturesOf(kind: TaskRecord['kind'], params: Record<string, unknown>): Picture[] {
  const pictures: Picture[] = [];
  if (kind === 'image_to_video') {
    const start = mediaLink(params.image_url).url;
    if (start) pictures.push({ label: 'Start frame', url: start });
    const end = mediaLink(params.end_image_url).url;
    if (end) pictures.push({ label: 'End frame', url: end });
  }
  const references = urlsOf(params.reference_images ?? params.image_list);
  references.forEach((url, index) =>
    pictures.push({ label: `Reference image ${index + 1} of ${references.length}`, url }),
  );
  return pictures;
}

export function RequestInputs({ record }: { record: TaskRecord }) {
  const params = (record.params ?? {}) as Record<string, unknown>;
  const prompt = typeof params.prompt === 'string' && params.prompt.trim() ? params.prompt : undefined;
  const video = record.kind === 'video_translate' ? mediaLink(params.video_url).url : undefined;
  const pictures = picturesOf(record.kind, params);
  if (!prompt && !video && pictures.length === 0) return null;
  return (
    <section aria-labelledby="inputs-heading" className={`${cardClass} space-y-3 p-4`}>
      <h2 id="inputs-heading" className="font-semibold">
        Inputs
      </h2>
      {prompt && (
        <figure>
          <figcaption className="text-sm font-medium text-zinc-600 dark:text-zinc-400">Prompt</figcaption>
          <blockquote className="mt-1 text-sm whitespace-pre-wrap text-zinc-900 dark:text-zinc-100">
            {prompt}
          </blockquote>
        </figure>
      )}
      {video && (
        <figure>
          <figcaption className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
            Source video
          </figcaption>
          <video
            src={video}
            controls
            preload="metadata"
            playsInline
            aria-label="Source video"
            className="mt-1 aspect-video max-h-64 w-full max-w-xl rounded-lg bg-black object-contain"
          />
        </figure>
      )}
      {pictures.length > 0 && (
        <ul className="flex flex-wrap gap-3" aria-label="Input images">
          {pictures.map((picture) => (
            <li key={`${picture.label}-${picture.url}`}>
              <figure className="w-32">
                <a href={picture.url} target="_blank" rel="noopener noreferrer">
                  <img
                    src={thumbnailSrc(picture.url)}
                    alt={picture.label}
                    loading="lazy"
                    referrerPolicy="no-referrer"
                    className="size-32 rounded-lg border border-zinc-200 bg-zinc-50 object-cover dark:border-zinc-800 dark:bg-zinc-800"
                  />
                </a>
                <figcaption className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                  {picture.label}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
