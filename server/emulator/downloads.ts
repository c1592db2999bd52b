// Reference images are really downloaded before tasks are created, as the service does: every
// URL in parallel, each within a timeout and at most 20 MB, and each must be an image the service
// reads (JPG/JPEG, PNG, BMP, WebP, GIF) judged by its first bytes, not by its name or headers.
import { BOUNDS } from '../../src/api/schemas';

export type ImageFormat = 'JPEG' | 'PNG' | 'BMP' | 'WebP' | 'GIF' | 'SVG';

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

/**
 * The emulator draws its image results as SVG (svg.ts), a format the service does not take. They are
 * the service's own results, though, so they are accepted as inputs (Animate makes a video from one).
 */
const OWN_IMAGE_RESULT = /^\/emulator\/media\/images\/[^/]+\.svg$/;
export function isOwnImageResult(url: string, bytes: Uint8Array): boolean {
  return OWN_IMAGE_RESULT.test(new URL(url).pathname) && ascii(bytes, 0, 5) === '<svg ';
}

export interface DownloadOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes?: number;
  /** Aborts everything at once, e.g. when the emulator closes. */
  signal?: AbortSignal;
  /** Checks a URL without the network when it is one of the emulator's own files (uploads). */
  local?: (url: string) => Promise<ImageFormat> | undefined;
}

export class DownloadError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url}: ${reason}`);
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too_large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function downloadImage(url: string, options: DownloadOptions): Promise<ImageFormat> {
  const local = options.local?.(url);
  if (local) return local;
  const maxBytes = options.maxBytes ?? BOUNDS.referenceImageMaxBytes;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await options.fetch(url, { signal, headers: { accept: 'image/*' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadError(url, `HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadError(url, `larger than ${megabytes(maxBytes)}`);
    }
    const bytes = await readLimited(response, maxBytes);
    if (bytes === 'too_large') throw new DownloadError(url, `larger than ${megabytes(maxBytes)}`);
    const format = sniffImageFormat(bytes) ?? (isOwnImageResult(url, bytes) ? 'SVG' : undefined);
    if (!format) throw new DownloadError(url, 'not a supported image (JPG, JPEG, PNG, BMP, WebP or GIF)');
    return format;
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    if (timeout.aborted)
      throw new DownloadError(url, `timed out after ${Math.round(options.timeoutMs / 100) / 10} s`);
    if (options.signal?.aborted) throw new DownloadError(url, 'cancelled');
    // One text for refused addresses, closed ports and unknown hosts alike: the reason would let a
    // caller map which internal addresses answer.
    throw new DownloadError(url, 'cannot be fetched');
  }
}

/** Downloads all in parallel; rejects with the first failing URL in list order. */
export async function downloadReferenceImages(
  urls: readonly string[],
  options: DownloadOptions,
): Promise<ImageFormat[]> {
  const results = await Promise.allSettled(urls.map((url) => downloadImage(url, options)));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<ImageFormat>).value);
}
