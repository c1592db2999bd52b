// A request's fields as the record keeps them: its id, its params without secrets, its title.
import type { RequestFile } from '../../src/api/task-detail/request-files';

/** The id of the request whose creation answer listed `firstTaskId` first. */
export const requestIdOf = (firstTaskId: string) => `req-${firstTaskId}`;

/** Keys that never land in a request's record: the inbox address and anything that looks like a credential. */
const SECRET_KEY = /token|secret|password|passwd|api_?key|auth|credential|signature/i;

/** The request body as the team may see it: no callback_url, nothing token-like (at any depth). */
export function publicParams(params: Record<string, unknown>): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => key !== 'callback_url' && !SECRET_KEY.test(key))
        .map(([key, inner]) => [key, clean(inner)]),
    );
  };
  return clean(params) as Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** What people call a request and each of its tasks: the prompt, else the output name, else the uploaded file's name. */
export function requestTitle(fields: {
  prompt?: unknown;
  name?: unknown;
  files?: readonly RequestFile[] | null;
}): string | null {
  return text(fields.prompt) ?? text(fields.name) ?? text(fields.files?.[0]?.name);
}

/**
 * A task's request title from its row: the request's own name (params), not the one a status
 * answer gave the output ("Japanese-All-hands recap").
 */
export function taskTitle(row: {
  prompt: string | null;
  name: string | null;
  params: Record<string, unknown> | null;
  files: readonly RequestFile[] | null;
}): string | null {
  return requestTitle({ prompt: row.prompt, name: text(row.params?.name) ?? row.name, files: row.files });
}
