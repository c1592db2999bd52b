// What a webhook receives about a request that ended, and how it is signed. The body is
// Slack-compatible (`text`, which Slack's and most chat tools' incoming webhooks show) with the
// request in full beside it for scripts. The signature is HMAC-SHA256 over `<timestamp>.<body>`
// with the webhook's secret, so a receiver can check both who sent it and that it is fresh.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../db/schema';

export interface EndedRequest {
  id: string;
  kind: string;
  title: string | null;
  creator: string | null;
  tasks: { id: string; status: string; error_message?: string }[];
}

export const SIGNATURE_HEADER = 'x-media-console-signature';
export const TIMESTAMP_HEADER = 'x-media-console-timestamp';

const KIND_NAMES: Record<string, string> = {
  image_generate: 'Images',
  video_translate: 'Translation',
  image_to_video: 'Video',
};

export function messageBody(
  event: WebhookEvent,
  request: EndedRequest,
  link: string | undefined,
): Record<string, unknown> {
  const succeeded = request.tasks.filter((task) => task.status === 'SUCCEEDED').length;
  const what = `${KIND_NAMES[request.kind] ?? request.kind} “${(request.title ?? request.id).slice(0, 200)}”`;
  const by = request.creator ? ` by ${request.creator}` : '';
  const outcome =
    event === 'failed'
      ? `failed: ${succeeded} of ${request.tasks.length} succeeded`
      : `finished: ${request.tasks.length === 1 ? 'done' : `all ${request.tasks.length} done`}`;
  const firstError = request.tasks.find((task) => task.status === 'FAILED')?.error_message;
  const text =
    `${event === 'failed' ? '❌' : '✅'} ${what}${by} ${outcome}` +
    (firstError ? ` (${firstError.slice(0, 300)})` : '') +
    (link ? ` · ${link}` : '');
  return { text, event: `request.${event}`, request: { ...request, url: link } };
}

/** The signature header's value: `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export function sign(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** For receivers (and the tests): the signature is right and at most `toleranceS` old. */
export function verify(
  secret: string,
  header: string | null,
  timestamp: string | null,
  body: string,
  now = Date.now(),
  toleranceS = 300,
): boolean {
  const at = Number(timestamp);
  if (!header || !Number.isInteger(at) || Math.abs(now / 1000 - at) > toleranceS) return false;
  const expected = Buffer.from(sign(secret, at, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
