// What a file field takes: types, their words and the largest size. The check itself is in
// ./upload-refusal.ts, loaded with the first file.
import type { MediaType } from '@/api/media-type';

export interface UploadAccept {
  kind: 'image' | 'video';
  /** Accepted types by their sniffed extension. */
  exts: readonly MediaType['ext'][];
  /** The types in words, e.g. "JPG, PNG or WebP". */
  label: string;
  maxBytes: number;
}

const MB = 1024 * 1024;
const IMAGE_MAX_BYTES = 20 * MB;
const DEFAULT_VIDEO_MAX_BYTES = 500 * MB;

export const IMAGE_ACCEPT: UploadAccept = {
  kind: 'image',
  exts: ['jpg', 'png', 'bmp', 'webp', 'gif'],
  label: 'JPG, JPEG, PNG, BMP, WebP or GIF',
  maxBytes: IMAGE_MAX_BYTES,
};

/** Start and end frames of Image to video. */
export const FRAME_ACCEPT: UploadAccept = {
  ...IMAGE_ACCEPT,
  exts: ['jpg', 'png', 'webp'],
  label: 'JPG, PNG or WebP',
};

export function videoAccept(maxBytes = DEFAULT_VIDEO_MAX_BYTES): UploadAccept {
  return { kind: 'video', exts: ['mp4', 'mov', 'webm'], label: 'MP4, MOV or WebM', maxBytes };
}

/** The `accept` attribute of the file picker: a hint for the dialog only; the bytes decide. */
export function pickerAccept(accept: UploadAccept): string {
  const extra = accept.exts.includes('jpg') ? ['.jpeg'] : [];
  return [
    ...accept.exts.map((ext) => `.${ext}`),
    ...extra,
    accept.kind === 'image' ? 'image/*' : 'video/*',
  ].join(',');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(0)} KB`;
  // 25 MB, not 25.0 MB; 2.5 MB keeps its tenth.
  if (bytes < 1024 * MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  return `${Number((bytes / (1024 * MB)).toFixed(2))} GB`;
}
