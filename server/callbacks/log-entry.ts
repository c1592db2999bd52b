// A stored callback and its idempotency key, shared by the store and its group commit (in a module
// of their own, so neither imports the other's).
import { createHash } from 'node:crypto';
import type { CallbackBody } from '../../src/api/schemas';

export interface StoredCallback {
  /** Event id, monotonic in commit order. */
  id: number;
  /** ISO 8601, when the body was stored. */
  receivedAt: string;
  /** The body exactly as received (validated; unknown fields kept). */
  body: CallbackBody;
}

export interface AppendResult {
  entry: StoredCallback;
  duplicate: boolean;
}

/** Key order must not make two deliveries of the same callback look different. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    // The keys of one object are never equal: a comparison needs no third answer.
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Idempotency key: task_id + status + the whole body. */
export function callbackKey(body: CallbackBody): string {
  const hash = createHash('sha256').update(canonical(body)).digest('hex');
  return `${body.data.task_id}|${body.data.status}|${hash}`;
}
