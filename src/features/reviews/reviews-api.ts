// A result's review as the browser reads and changes it (server/reviews/routes.ts).
import type { ReviewChange, ReviewView } from '@/api/reviews';

/** A refusal of the server, with the field it names when it names one. */
export class ReviewError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The review's query key: the task's summary is part of it, so a change pushed by the server reads it again. */
export const reviewKey = (taskId: string, stamp: string) => ['reviews', taskId, stamp] as const;

async function call(path: string, init: RequestInit = {}): Promise<ReviewView> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => ({}))) as {
    msg?: string;
    field?: string;
    data?: ReviewView;
  };
  if (!response.ok || !body.data)
    throw new ReviewError(body.msg ?? `The console answered HTTP ${response.status}`, body.field);
  return body.data;
}

const path = (taskId: string) => `/__console/reviews/${encodeURIComponent(taskId)}`;

export const fetchReview = (taskId: string, signal?: AbortSignal) => call(path(taskId), { signal });

export const sendReview = (taskId: string, change: ReviewChange) =>
  call(path(taskId), { method: 'POST', body: JSON.stringify(change) });

export const deleteReviewComment = (taskId: string, commentId: string) =>
  call(`${path(taskId)}/comments/${encodeURIComponent(commentId)}`, { method: 'DELETE' });
