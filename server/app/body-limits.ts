// How large a body each route of the Node side may be sent (server/http/body-limits.ts enforces it
// while the bytes stream, before any route reads them). Each limit fits what its route reads, so
// that no body can move the server's memory by more than its limit times the requests in flight.
// A route that takes a body and is not named here gets FALLBACK_BODY_BYTES, and
// server/app/body-limits.test.ts fails until it is named.
import { BULK_IDS_MAX } from '../../src/api/bulk-rules';
import { UPLOAD_PATH } from '../../src/api/upload';
import { REVIEW_COMMENT_MAX } from '../../src/api/reviews';
import { CALLBACK_MAX_BYTES } from '../callbacks/inbox';
import { MAX_PROXY_BODY_BYTES } from '../proxy/proxy';
import { WEBHOOK_BODY_MAX_BYTES } from '../notify/routes';
import { createBodyLimits, type BodyLimitRule, type BodyLimits } from '../http/body-limits';
import { CONSOLE_CALLBACKS_PATH } from '../../src/api/schemas';

/** A route that reads no body (a DELETE, a POST without one) still takes a stray `{}`. */
export const FALLBACK_BODY_BYTES = 1024;
/** A task id in a JSON list: ids are at most 200 characters, the service's about 40. */
const ID_IN_JSON_BYTES = 256;
/** `{"ids": [...]}` of the bulk actions: as many ids as "Select all matching" selects, plus room. */
export const BULK_BODY_MAX_BYTES = BULK_IDS_MAX * ID_IN_JSON_BYTES + 1024;
/** A role, an e-mail; the emulator's settings; a scope's limits (a dozen rows). */
const SMALL_JSON_BYTES = 4 * 1024;
const SETTINGS_BODY_BYTES = 64 * 1024;
const LIMITS_BODY_BYTES = 16 * 1024;
/** A review: a decision and a comment of REVIEW_COMMENT_MAX characters, each up to 6 bytes as a JSON escape. */
export const REVIEW_BODY_MAX_BYTES = REVIEW_COMMENT_MAX * 6 + 1024;

export function bodyLimitRules(uploadMaxBytes: number): BodyLimitRule[] {
  return [
    { method: 'POST', path: '/__console/people/:id/role', maxBytes: SMALL_JSON_BYTES, json: true },
    { method: 'POST', path: '/__console/invitations', maxBytes: SMALL_JSON_BYTES, json: true },
    // Removals read no body.
    { method: 'DELETE', path: '/__console/people/:id', maxBytes: FALLBACK_BODY_BYTES },
    { method: 'DELETE', path: '/__console/invitations/:id', maxBytes: FALLBACK_BODY_BYTES },
    { method: 'DELETE', path: '/__console/results/:task', maxBytes: FALLBACK_BODY_BYTES },
    { method: 'PUT', path: '/__console/limits', maxBytes: LIMITS_BODY_BYTES, json: true },
    { method: 'POST', path: '/__console/tasks/zip', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'POST', path: '/__console/tasks/hidden', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'POST', path: '/emulator/settings', maxBytes: SETTINGS_BODY_BYTES, json: true },
    // Stars and boards: lists of task ids (as many as a bulk selection), or a board's name and text.
    { method: 'POST', path: '/__console/stars', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'POST', path: '/__console/boards', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'PATCH', path: '/__console/boards/:id', maxBytes: SMALL_JSON_BYTES, json: true },
    { method: 'DELETE', path: '/__console/boards/:id', maxBytes: FALLBACK_BODY_BYTES },
    { method: 'POST', path: '/__console/boards/:id/items', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'POST', path: '/__console/boards/:id/items/remove', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    { method: 'PUT', path: '/__console/boards/:id/order', maxBytes: BULK_BODY_MAX_BYTES, json: true },
    // A share link: what it shows (a board's or a request's id) and how many days it lives.
    { method: 'POST', path: '/__console/shares', maxBytes: SMALL_JSON_BYTES, json: true },
    { method: 'DELETE', path: '/__console/shares/:id', maxBytes: FALLBACK_BODY_BYTES },
    // A decision and a comment on a result; deleting a comment reads no body.
    { method: 'POST', path: '/__console/reviews/:task', maxBytes: REVIEW_BODY_MAX_BYTES, json: true },
    { method: 'DELETE', path: '/__console/reviews/:task/comments/:comment', maxBytes: FALLBACK_BODY_BYTES },
    // A personal API token's name and lifetime.
    { method: 'POST', path: '/__console/tokens', maxBytes: SMALL_JSON_BYTES, json: true },
    { method: 'DELETE', path: '/__console/tokens/:id', maxBytes: FALLBACK_BODY_BYTES },
    // "Check again" reads no body; a webhook's settings are a name, a URL and its events.
    { method: 'POST', path: '/__console/tasks/:id/check', maxBytes: FALLBACK_BODY_BYTES },
    { method: 'POST', path: '/__console/webhooks', maxBytes: WEBHOOK_BODY_MAX_BYTES, json: true },
    { method: 'DELETE', path: '/__console/webhooks/:id', maxBytes: FALLBACK_BODY_BYTES },
    // The inbox reads a callback from the socket itself (server/callbacks/read-body.ts), counting.
    { method: 'POST', path: '/callbacks/:secret', maxBytes: CALLBACK_MAX_BYTES, countedByRoute: true },
    { method: 'POST', path: CONSOLE_CALLBACKS_PATH, maxBytes: CALLBACK_MAX_BYTES, countedByRoute: true },
    // A file streams on to the service or to the emulator's disk, counted as it goes (UPLOAD_MAX_MB).
    { method: 'POST', path: UPLOAD_PATH, maxBytes: uploadMaxBytes, countedByRoute: true },
    // The creations: a prompt, a few URLs, a language list. The proxy and the emulator judge the type.
    { method: 'POST', path: '/v1/*', maxBytes: MAX_PROXY_BODY_BYTES },
  ];
}

export function nodeBodyLimits(uploadMaxBytes: number): BodyLimits {
  return createBodyLimits(bodyLimitRules(uploadMaxBytes), { fallbackBytes: FALLBACK_BODY_BYTES });
}
