// Words of the file controls shared by the rows, the video field and the submit guard.

/** Shown instead of the file controls once the backend proved it has no upload endpoint. */
export const UPLOADS_UNAVAILABLE_NOTE = 'File uploads are not available on this backend; paste a public URL.';

export function waitNote(count: number): string {
  return count === 1
    ? 'A file is still uploading: the form can be sent when it finishes (or cancel it).'
    : `${count} files are still uploading: the form can be sent when they finish (or cancel them).`;
}
