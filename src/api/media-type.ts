// What a file is, judged from its first bytes and never from its name: the browser checks a file
// before uploading it, and the emulator checks it again when it arrives (and when it downloads a
// reference image). JPG/JPEG, PNG, BMP, WebP, GIF images; MP4, MOV, WebM videos.

export type ImageFormat = 'JPEG' | 'PNG' | 'BMP' | 'WebP' | 'GIF';

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);
const readUint32LE = (bytes: Uint8Array, at: number) =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  if (
    bytes.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte)
  ) {
    return 'PNG';
  }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'GIF';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'WebP';
  // "BM" plus a known DIB header size, so a text file starting with "BM" is not taken for a bitmap.
  if (bytes.length >= 26 && ascii(bytes, 0, 2) === 'BM' && BMP_HEADER_SIZES.has(readUint32LE(bytes, 14)))
    return 'BMP';
  return undefined;
}

export interface MediaType {
  ext: 'jpg' | 'png' | 'bmp' | 'webp' | 'gif' | 'mp4' | 'mov' | 'webm';
  contentType: string;
  kind: 'image' | 'video';
}

const IMAGE_TYPES: Record<ImageFormat, MediaType> = {
  JPEG: { ext: 'jpg', contentType: 'image/jpeg', kind: 'image' },
  PNG: { ext: 'png', contentType: 'image/png', kind: 'image' },
  BMP: { ext: 'bmp', contentType: 'image/bmp', kind: 'image' },
  WebP: { ext: 'webp', contentType: 'image/webp', kind: 'image' },
  GIF: { ext: 'gif', contentType: 'image/gif', kind: 'image' },
};
const VIDEO_TYPES = {
  mp4: { ext: 'mp4', contentType: 'video/mp4', kind: 'video' },
  mov: { ext: 'mov', contentType: 'video/quicktime', kind: 'video' },
  webm: { ext: 'webm', contentType: 'video/webm', kind: 'video' },
} as const satisfies Record<string, MediaType>;
export const MEDIA_TYPE_BY_EXT = new Map<string, MediaType>(
  [...Object.values(IMAGE_TYPES), ...Object.values(VIDEO_TYPES)].map((type) => [type.ext, type]),
);

/** Bytes needed to recognise every accepted type. */
export const SNIFF_BYTES = 32;

/**
 * Images by their signatures (shared with reference downloads); videos by container: an ISO base
 * media `ftyp` box (brand `qt  ` = QuickTime MOV, any other = MP4 family) or the EBML header of WebM.
 */
export function sniffMediaType(bytes: Uint8Array): MediaType | undefined {
  const image = sniffImageFormat(bytes);
  if (image) return IMAGE_TYPES[image];
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    return ascii(bytes, 8, 12) === 'qt  ' ? VIDEO_TYPES.mov : VIDEO_TYPES.mp4;
  }
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return VIDEO_TYPES.webm;
  return undefined;
}
