// One upload's course, loaded with the first file: the browser's check, then the XHR upload with its
// progress, ending in a URL, a refusal, a failure (retryable after a network error) or the news that
// this backend has no upload endpoint. The tracker keeps the state; this only reports to it.
import { isApiError } from '@/api/errors';
import { uploadFile } from '@/api/upload';
import { refusalOf } from './upload-refusal';
import type { UploadAccept } from './upload-accept';
import type { UploadJob } from './upload-job';

interface UploadReport {
  /** False once the upload was cancelled or replaced: nothing more is reported. */
  alive: () => boolean;
  setController: (controller: AbortController) => void;
  patch: (change: Partial<UploadJob>) => void;
  done: (url: string) => void;
  unavailable: () => void;
}

export async function runUpload(file: File, accept: UploadAccept, check: boolean, report: UploadReport) {
  try {
    if (check) {
      const refusal = await refusalOf(file, accept);
      if (!report.alive()) return;
      if (refusal) {
        report.patch({ state: 'refused', message: refusal });
        return;
      }
      report.patch({ state: 'uploading' });
    }
    const controller = new AbortController();
    report.setController(controller);
    const uploaded = await uploadFile(file, {
      signal: controller.signal,
      onProgress: (progress) => {
        if (report.alive()) report.patch(progress);
      },
    });
    if (report.alive()) report.done(uploaded.url);
  } catch (error) {
    if (!report.alive()) return;
    if (isApiError(error) && error.kind === 'unavailable') {
      report.unavailable();
      return;
    }
    report.patch({
      state: 'failed',
      message: isApiError(error) ? error.msg : String(error),
      retryable: isApiError(error) && error.kind === 'network',
    });
  }
}
