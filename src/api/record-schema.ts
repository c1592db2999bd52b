// The team's record as /__console/tasks and /__console/requests answer it, as zod/mini schemas: the
// OpenAPI description (server/openapi) is made from them. The server builds these answers with its
// own types (server/tasks/task-view.ts, requests.ts); server/openapi/openapi.test.ts checks that
// every field of those types is here with a type that holds it, and that real answers parse, so the
// two cannot drift apart. Times are epoch milliseconds.
import { reviewSummarySchema } from './review-schema';
import { z } from './zod';

const RESULT_ROLE = z.enum(['image', 'video', 'thumbnail', 'caption']);

/** Where a task's result files stand in the team's store (server/results). */
export const taskCopiesSchema = z.object({
  /** Kept files by role, each its same-origin path under /__console/results/. */
  kept: z.partialRecord(RESULT_ROLE, z.string()),
  /** Roles whose copy failed or whose link expired first. */
  lost: z.array(RESULT_ROLE),
  /** Roles whose kept copy was removed: by retention (`days`) or by an admin; `at` is when. */
  removed: z.optional(
    z.partialRecord(RESULT_ROLE, z.object({ days: z.optional(z.number()), at: z.number() })),
  ),
  /** Roles still waiting to be copied. */
  pending: z.array(RESULT_ROLE),
});

/** A file uploaded through the console into the request, with its name. */
export const requestFileSchema = z.object({ field: z.string(), url: z.string(), name: z.string() });

export const taskViewSchema = z.object({
  id: z.string(),
  /** image_generate, video_translate or image_to_video. */
  kind: z.string(),
  /** What recorded it: the creation, a status check, a callback, a look-up. */
  source: z.string(),
  /** The request as sent, secrets removed. */
  params: z.optional(z.record(z.string(), z.unknown())),
  /** The ids of the tasks made by the same creation. */
  batch: z.optional(z.array(z.string())),
  prompt: z.optional(z.string()),
  name: z.optional(z.string()),
  language: z.optional(z.string()),
  /** The creator's name: the signed-in person, or the person a personal API token acts as. */
  creator: z.optional(z.string()),
  creatorId: z.optional(z.string()),
  /** The creator's name was typed, not verified (recorded before sign-in identities). */
  creatorUnverified: z.optional(z.boolean()),
  /** The service's status: SUCCEEDED, FAILED, GENERATING, … */
  status: z.string(),
  /** The service's last answer for it. */
  result: z.record(z.string(), z.unknown()),
  lastError: z.optional(z.unknown()),
  lastSource: z.optional(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.optional(z.number()),
  lastCheckedAt: z.optional(z.number()),
  files: z.optional(z.array(requestFileSchema)),
  /** The request that created it (absent for a task looked up or named by a callback). */
  requestId: z.optional(z.string()),
  title: z.optional(z.string()),
  copies: z.optional(taskCopiesSchema),
  /** What the team said of it: decisions and comments counted; absent when nobody said anything. */
  review: z.optional(reviewSummarySchema),
});
export type TaskViewData = z.infer<typeof taskViewSchema>;

export const taskEventSchema = z.object({
  at: z.number(),
  source: z.string(),
  status: z.optional(z.string()),
  error: z.optional(z.unknown()),
});

/** GET /__console/tasks/{id}: the task and its timeline. */
export const taskWithEventsSchema = z.object({ task: taskViewSchema, events: z.array(taskEventSchema) });

/** GET /__console/tasks: a page of the team's tasks, newest first (or as `sort` says). */
export const taskPageSchema = z.looseObject({
  items: z.array(taskViewSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.nullable(z.string()),
  /** The first page's counts per tab of the view. */
  counts: z.optional(z.record(z.string(), z.nullable(z.number()))),
  countsCapped: z.optional(z.boolean()),
  countsUnknown: z.optional(z.boolean()),
  /** A search stopped at its time limit before the page was full: `nextCursor` goes on from there. */
  cutShort: z.optional(z.boolean()),
  /** With `group=request`: the page's requests, each with all its tasks. */
  requests: z.optional(z.array(z.lazy(() => requestWithTasksSchema))),
});

export const requestViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  creator: z.optional(z.string()),
  creatorUnverified: z.optional(z.boolean()),
  createdAt: z.number(),
  params: z.optional(z.record(z.string(), z.unknown())),
  title: z.optional(z.string()),
  taskIds: z.array(z.string()),
  /** "More like this": the request this one made again. */
  parentRequestId: z.optional(z.string()),
});

/** A request (one submission of a form) with its tasks, in the order the creation listed them. */
export const requestWithTasksSchema = z.object({
  ...requestViewSchema.shape,
  tasks: z.array(taskViewSchema),
});
export type RequestWithTasksData = z.infer<typeof requestWithTasksSchema>;

/** GET /__console/requests: a page of requests, newest first. */
export const requestPageSchema = z.looseObject({
  items: z.array(requestWithTasksSchema),
  nextCursor: z.nullable(z.string()),
});
