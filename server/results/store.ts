// Where kept results live: a folder on disk by default (DATA_DIR/results), or any S3-compatible
// object store (RESULTS_STORE=s3). Keys are made by the copy job from a hash of the task id and a
// role from a fixed list (keyFor), never from a path the outside supplied.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Readable;
  /** Bytes in `body`. */
  length: number;
}

/** The headers a presigned URL's answer carries (S3's response-… parameters). */
export interface PresignedAnswer {
  contentType: string;
  contentDisposition?: string;
}

export interface ResultStore {
  /** `disk` or `s3`: for the admin and the logs. */
  readonly kind: string;
  /** Writes the whole stream under `key`; nothing is visible under it until the stream has ended. */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object's bytes from `start` to `end` inclusive (the whole object when absent); undefined if none. */
  get(key: string, range?: { start: number; end: number }): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /**
   * S3 only: a short-lived presigned GET URL for a file of `size` bytes, answered with the headers
   * the console would set; undefined when the file is small enough to serve directly (or
   * redirects are off, S3_PRESIGN_ABOVE_MB=0).
   */
  redirectFor?(key: string, size: number, answer: PresignedAnswer): Promise<string | undefined>;
  close?(): Promise<void> | void;
}

/** The file roles a task's result can have, in the order a task lists them. */
export const RESULT_ROLES = ['image', 'video', 'thumbnail', 'caption'] as const;
export type ResultRole = (typeof RESULT_ROLES)[number];

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f]{64}\/(image|video|thumbnail|caption)-\d{1,4}$/;

/** `ab/<sha256 of the task id>/<role>-<index>`: spread over 256 folders, nothing taken from the id as text. */
export function keyFor(taskId: string, role: ResultRole, index: number): string {
  const hash = createHash('sha256').update(taskId).digest('hex');
  return `${hash.slice(0, 2)}/${hash}/${role}-${index}`;
}

/** Every store refuses a key keyFor could not have made (defence in depth for the disk paths). */
export function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error('Not a result key');
}
