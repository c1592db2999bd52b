// Uploads a local file through the console's own origin to the provider's upload endpoint
// (provider-notes, "File upload"). XMLHttpRequest, not fetch: only XHR reports upload progress.
// Every failure becomes the app's one ApiError; a cancel rejects with the AbortSignal's reason.
import { ApiError, kindFor, parseRetryAfter } from './errors';
import { uploadAnswerMessage, uploadAnswerSchema } from './schemas';

export const UPLOAD_PATH = '/v1/figure-resource/upload/file';

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100, whole numbers. */
  percent: number;
}

export interface UploadedFile {
  /** What goes into reference_images, image_url, end_image_url or video_url. */
  url: string;
  fileId?: string;
  fileName: string;
}

interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting cancels the upload; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The words shown when the backend has no upload endpoint (HTTP 404 without a business code). */
export const UPLOADS_UNAVAILABLE = 'Uploads are not available on this backend. Paste a public URL instead.';

const HTTP_URL = /^https?:\/\//i;

function toProgress(loaded: number, total: number): UploadProgress {
  return { loaded, total, percent: total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0 };
}

/** Reads an upload answer: the provider's envelope, or the `{code, msg}` of a proxy or plainer backend. */
export function readUploadAnswer(
  status: number,
  text: string,
  retryAfter: string | null,
  fallbackName: string,
): UploadedFile {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = uploadAnswerSchema.safeParse(json);
  const answer = parsed.success ? parsed.data : undefined;
  const code = answer?.code;
  const retryAfterMs = parseRetryAfter(retryAfter);
  const ok = status >= 200 && status < 300;

  if (!ok || !answer || (code !== undefined && code !== 0) || answer.success === false) {
    const kind = !answer && ok ? 'malformed' : kindFor(status, code === 0 ? undefined : code);
    const words = answer ? uploadAnswerMessage(answer) : '';
    throw new ApiError({
      kind: kind === 'business' || kind === 'validation' || kind === 'bounds' ? 'business' : kind,
      httpStatus: status,
      code,
      msg:
        kind === 'unavailable'
          ? UPLOADS_UNAVAILABLE
          : words || (kind === 'malformed' ? 'The upload answer is not JSON' : `HTTP ${status}`),
      retryAfterMs,
    });
  }
  const url = answer.result?.url;
  if (!url || !HTTP_URL.test(url)) {
    throw new ApiError({
      kind: 'malformed',
      httpStatus: status,
      code,
      msg: 'Unexpected upload answer: result.url is missing or not an http(s) URL',
    });
  }
  return {
    url,
    fileId: answer.result?.fileId ?? undefined,
    fileName: answer.result?.fileName || fallbackName,
  };
}

export function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadedFile> {
  const { onProgress, signal } = options;
  return new Promise<UploadedFile>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });

    xhr.open('POST', UPLOAD_PATH);
    xhr.setRequestHeader('accept', 'application/json');
    // The team record names who uploaded the file, as for every other /v1 request.
    xhr.upload.onprogress = (event) => {
      onProgress?.(toProgress(event.loaded, event.lengthComputable ? event.total : file.size));
    };
    xhr.onload = () => {
      done();
      try {
        const uploaded = readUploadAnswer(
          xhr.status,
          xhr.responseText,
          xhr.getResponseHeader('retry-after'),
          file.name,
        );
        onProgress?.(toProgress(file.size, file.size));
        resolve(uploaded);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => {
      done();
      reject(
        new ApiError({
          kind: 'network',
          msg: 'The upload was interrupted: the console could not be reached',
        }),
      );
    };
    xhr.onabort = () => {
      done();
      reject(signal?.reason ?? new DOMException('The upload was cancelled', 'AbortError'));
    };

    const body = new FormData();
    body.append('file', file, file.name);
    onProgress?.(toProgress(0, file.size));
    xhr.send(body);
  });
}
