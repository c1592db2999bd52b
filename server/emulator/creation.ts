// What the three creation routes (image generation, video translation, image to video) share once
// a body is valid: fetching the images it names, and turning it into tasks (or into the rejection a
// trigger word asks for). Each route keeps only what is its own: its schema, its fields, its answer.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../src/api/errors';
import { requestOrigin } from '../http/request-origin';
import { downloadReferenceImages, DownloadError } from './downloads';
import type { EmulatorEngine } from './engine';
import { fail } from './envelope';
import { outcomeFor, rejectedOnPurpose, wantsReject } from './magic-words';
import type { TaskBase, TaskRecord } from './tasks';

/**
 * Downloads every image a request names, as the service does before it creates a task; the first
 * that fails answers 530002 (undefined = all downloaded).
 */
export async function downloadAll(
  c: Context,
  engine: EmulatorEngine,
  urls: readonly (string | undefined)[],
): Promise<Response | undefined> {
  const controller = engine.scheduler.controller();
  const origin = requestOrigin(c);
  try {
    await downloadReferenceImages(
      urls.filter((url): url is string => url !== undefined),
      {
        fetch: engine.options.fetch,
        timeoutMs: engine.options.downloadTimeoutMs,
        signal: controller.signal,
        // The emulator's own uploads are read from disk: no network, works offline.
        local: (url) => engine.uploads.localImage(url, origin),
      },
    );
    return undefined;
  } catch (error) {
    const reason = error instanceof DownloadError ? `${error.url}: ${error.reason}` : String(error);
    return fail(c, 200, ERROR_CODES.referenceImage, `download reference image failed: ${reason}`);
  } finally {
    engine.scheduler.release(controller);
  }
}

type Kind = TaskRecord['kind'];
/** A task's own fields: everything but what `engine.taskBase` gives every task. */
type OwnFields<K extends Kind> = Omit<Extract<TaskRecord, { kind: K }>, keyof TaskBase | 'kind'>;

/**
 * One task per item, all from one request: the same origin, callback and outcome (the trigger words
 * found in `texts`). A request asking for `emulator:reject` gets that answer instead (a Response).
 */
export function createTasks<K extends Kind, Item>(
  c: Context,
  engine: EmulatorEngine,
  request: { kind: K; texts: (string | undefined)[]; callbackUrl: string | undefined },
  items: readonly Item[],
  fields: (item: Item) => OwnFields<K>,
): Response | { item: Item; id: string }[] {
  if (wantsReject(...request.texts)) return rejectedOnPurpose(c);
  const outcome = outcomeFor(...request.texts);
  const origin = requestOrigin(c);
  return items.map((item) => {
    // The base, K's own fields and kind K make K's record; TypeScript cannot follow that through
    // the generic Omit, so the one cast lives here instead of in three routes.
    const task = {
      ...engine.taskBase(request.kind, origin, outcome, request.callbackUrl),
      ...fields(item),
      kind: request.kind,
    } as unknown as TaskRecord;
    return { item, id: engine.addTask(task).id };
  });
}
