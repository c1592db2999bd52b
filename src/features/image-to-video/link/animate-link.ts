// "Animate" on a succeeded image task opens Image to video with the image as the start frame. The
// link carries what the screen needs (the image, its task, the closest video orientation), so the
// task card and the detail page build it without loading the form.
import type { VideoAspectRatio } from '@/api/image-to-video/image-to-video-rules';

export const IMAGE_TO_VIDEO_PATH = '/image-to-video';

export interface AnimateSource {
  /** The image task's id. */
  from: string;
  /** Its image_url: the start frame. */
  start: string;
  ratio: VideoAspectRatio;
  /** The image's prompt, offered as a suggestion beside the video's (empty) prompt. */
  prompt?: string;
}

/** 16:9 for a landscape image, 9:16 for a portrait or square one, from a ratio such as "4:3". */
export function closestVideoRatio(imageRatio: string | undefined): VideoAspectRatio {
  const [w, h] = (imageRatio ?? '').split(':').map(Number);
  return w && h && w > h ? '16:9' : '9:16';
}

export function animateHref(source: AnimateSource): string {
  const { prompt, ...rest } = source;
  const params = new URLSearchParams({ ...rest });
  // A prompt the video form could not take whole is left behind rather than cut.
  if (prompt && prompt.length <= 1000) params.set('prompt', prompt);
  return `${IMAGE_TO_VIDEO_PATH}?${params}`;
}

export function readAnimateSource(search: string): AnimateSource | undefined {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const start = params.get('start');
  if (!from || !start) return undefined;
  const prompt = params.get('prompt') ?? undefined;
  return { from, start, ratio: params.get('ratio') === '16:9' ? '16:9' : '9:16', ...(prompt && { prompt }) };
}
