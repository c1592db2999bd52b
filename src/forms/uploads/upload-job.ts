// One file's upload as a form shows it: shared by the tracker and the upload code it loads later.
export type UploadState = 'checking' | 'uploading' | 'refused' | 'failed';

export interface UploadJob {
  id: number;
  slot: string;
  file: File;
  state: UploadState;
  loaded: number;
  total: number;
  percent: number;
  /** Why it was refused or failed. */
  message?: string;
  /** A network failure: the same file can be sent again. */
  retryable: boolean;
}
