// The choices the Image to video form offers as radio cards, with what each means.
import type { ImageToVideoMode } from '@/api/image-to-video/image-to-video-rules';

export const MODEL_OPTIONS = [
  { value: 'V', label: 'Model V', description: 'General model, the provider’s default; audio and 4k.' },
  { value: 'KL', label: 'Model KL', description: 'Combines up to 7 reference images; no audio.' },
] as const;

export const MODE_OPTIONS = [
  {
    value: 'start_frame',
    label: 'Start frame',
    description: 'Model V: the video starts on your image; an end frame is optional. 4, 6 or 8 s.',
  },
  {
    value: 'reference',
    label: 'Reference images',
    description: 'Model V: 1 to 3 images the video should follow. Always 8 s.',
  },
  {
    value: 'multi_reference',
    label: 'Multi-reference',
    description: 'Model KL: 1 to 7 images (2 or more works best). 5 or 10 s.',
  },
] as const satisfies readonly { value: ImageToVideoMode; label: string; description: string }[];

export const RATIO_OPTIONS = [
  { value: '16:9', label: 'Landscape', description: '16:9' },
  { value: '9:16', label: 'Portrait', description: '9:16' },
] as const;
