// Completion callbacks (section 6): when a task created with an http(s) callback_url reaches its
// terminal status, its body is POSTed there. A failed delivery (network error, timeout or non-2xx)
// is retried up to 3 more times with a doubling delay, as a real service would.
import { isHttpUrl } from '../../src/api/core/http-url';
import type { CallbackBody } from '../../src/api/schemas';
import type { Scheduler } from './scheduler';

const CALLBACK_RETRIES = 3;

export interface CallbackSenderOptions {
  fetch: typeof fetch;
  scheduler: Scheduler;
  timeoutMs: number;
  retryDelayMs: number;
  log: (message: string) => void;
}

/** The URL without query or credentials, for logs: callback URLs may carry secrets. */
/** Callback paths carry the receiver's secret (`/callbacks/<secret>`): log the origin only. */
function safeForLog(url: string): string {
  return new URL(url).origin;
}

async function postOnce(
  url: string,
  body: string,
  options: CallbackSenderOptions,
): Promise<string | undefined> {
  const controller = options.scheduler.controller();
  const timeout = setTimeout(() => controller.abort(new Error('timed out')), options.timeoutMs);
  timeout.unref?.();
  try {
    const response = await options.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'media-console-emulator' },
      body,
      signal: controller.signal,
      redirect: 'manual',
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return controller.signal.aborted
      ? 'timed out or cancelled'
      : `network error: ${(error as Error).message}`;
  } finally {
    clearTimeout(timeout);
    options.scheduler.release(controller);
  }
}

/** Sends `body` to `url` now, retrying in the background; non-http(s) URLs are never called. */
export function sendCallback(
  url: string | undefined,
  body: CallbackBody,
  options: CallbackSenderOptions,
): void {
  if (!isHttpUrl(url)) return;
  const json = JSON.stringify(body);
  const attempt = async (retry: number) => {
    if (options.scheduler.isClosed) return;
    const problem = await postOnce(url, json, options);
    if (!problem || options.scheduler.isClosed) return;
    if (retry >= CALLBACK_RETRIES) {
      options.log(
        `callback for ${body.data.task_id} to ${safeForLog(url)} gave up after ${retry + 1} tries: ${problem}`,
      );
      return;
    }
    options.scheduler.after(options.retryDelayMs * 2 ** retry, () => attempt(retry + 1));
  };
  void attempt(0);
}
