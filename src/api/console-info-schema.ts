// The shape of `/__console/config`: one schema for the servers that send it (server/app/node-app.ts,
// server/app/prod-app.ts, server/entry/demo.ts) and the tests, and its type for the browser that reads it
// (which checks only what it needs, so zod stays out of the first screen).
import { ROLES } from './roles';
import { TASK_TYPES } from './schemas';
import { z } from './zod';

/** A task the demo seeded, in the shape of a history record before its first poll. */
export const demoTaskSchema = z.object({
  id: z.string(),
  kind: z.enum(TASK_TYPES),
  source: z.literal('created'),
  params: z.record(z.string(), z.unknown()),
  language: z.optional(z.string()),
  /** An image-to-video task made from this image task (Animate). */
  animatedFrom: z.optional(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  status: z.literal(''),
});

export type DemoTask = z.infer<typeof demoTaskSchema>;

/**
 * What the Node side says about its backend (`/__console/config`); never includes the token. One
 * schema for the servers that send it (server/app/node-app.ts, server/app/prod-app.ts, server/entry/demo.ts) and
 * the browser that reads it, so the two sides cannot drift apart.
 */
export const consoleInfoSchema = z.object({
  backend: z.enum(['emulator', 'remote']),
  /** Host name of the real service, for the header's backend indicator. */
  apiHost: z.nullable(z.string()),
  tokenConfigured: z.boolean(),
  /**
   * Where the service POSTs callbacks, for people to read: the inbox's origin with its secret left
   * out (`https://console.example.com/callbacks/…`); null when no address it can reach is known. The
   * secret never reaches a browser: forms send the marker `console:inbox` and the server puts the
   * real address in; the log and the stream are read at CONSOLE_CALLBACKS_PATH.
   */
  callbackAddress: z.nullable(z.string()),
  callbackUrlReachable: z.boolean(),
  /** Largest file the console takes for upload (`UPLOAD_MAX_MB`), in bytes; images stop at 20 MB anyway. */
  uploadMaxBytes: z.optional(z.number()),
  /** The production server adds whether a sign-in (APP_PASSWORD) guards the console. */
  auth: z.optional(z.boolean()),
  /** Who is signed in (the creator of what they make) and their role. */
  user: z.optional(
    z.object({
      id: z.string(),
      name: z.string(),
      role: z.enum(ROLES),
      /** oidc, local, proxy, local-admin, shared-password. */
      source: z.string(),
    }),
  ),
  /** `npm run demo` adds its seeded tasks, imported once per server run into an empty history. */
  demo: z.optional(z.boolean()),
  demoRun: z.optional(z.string()),
  demoTasks: z.optional(z.array(demoTaskSchema)),
});

export type ConsoleInfo = z.infer<typeof consoleInfoSchema>;
