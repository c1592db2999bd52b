// Reference images are really downloaded before tasks are created, as the service does: every
// URL in parallel, each within a timeout and at most 20 MB, and each must be an image the service
// reads (JPG/JPEG, PNG, BMP, WebP, GIF) judged by its first bytes, not by its name or headers.
import { BOUNDS } from '../../src/api/schemas';
import { sniffImageFormat, type ImageFormat as SniffedFormat } from '../../src/api/media-type';

// The sniffer is shared with the browser's pre-upload check.
export { sniffImageFormat };
export type ImageFormat = SniffedFormat;

interface DownloadOptions {
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
    const format = sniffImageFormat(bytes);
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
