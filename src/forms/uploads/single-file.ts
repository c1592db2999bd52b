import type { UploadAccept } from './upload-accept';
import { FRAME_ACCEPT } from './upload-accept';
import type { UploadTracker } from './upload-tracker';

/** How an uploaded URL is put into its field: as if typed, checked at once. */
export const SET_UPLOADED = { shouldDirty: true, shouldValidate: true, shouldTouch: true } as const;

/**
 * Files for a field that holds one URL (a frame, the video): the first file goes there; a new one
 * replaces an upload still running for it.
 */
export function singleFile(
  tracker: UploadTracker,
  slot: string,
  set: (url: string) => void,
  accept: UploadAccept = FRAME_ACCEPT,
) {
  return {
    slot,
    accept,
    single: true,
    onFiles: (files: File[]) => {
      const [file] = files;
      if (file) tracker.start(slot, file, accept, set);
    },
  };
}
