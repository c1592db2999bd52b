// The one error type of the app. Everything that can go wrong between the browser and the service
// (HTTP status, envelope code, network, malformed body) becomes an ApiError with a kind, the
// service's own words, and a plain-language explanation of what to do next.
import { fieldFromMessage, parseBoundsMessage, type FieldBounds } from './error-fields';

export { REQUEST_FIELDS, fieldFromMessage, parseBoundsMessage, type FieldBounds } from './error-fields';

export type ApiErrorKind =
  | 'validation' // 100001
  | 'bounds' // 100002
  | 'reference_image' // 530002
  | 'task_creation' // 530003
  | 'auth' // HTTP 401
  | 'rate_limit' // HTTP 429
  | 'not_found' // the task id is unknown
  | 'unavailable' // the endpoint does not exist on this backend (HTTP 404 without a business code)
  | 'too_large' // HTTP 413
  | 'server' // HTTP 5xx
  | 'network' // no response at all
  | 'malformed' // a response that is not the documented envelope or data
  | 'business'; // any other non-zero code

export const ERROR_CODES = {
  validation: 100001,
  bounds: 100002,
  referenceImage: 530002,
  taskCreation: 530003,
  /** The emulator's code for an unknown task id (HTTP 404). The provider also documents 110002. */
  taskNotFound: 100003,
} as const;

const TASK_NOT_FOUND_CODES = new Set<number>([ERROR_CODES.taskNotFound, 110002]);

const EXPLANATIONS: Record<ApiErrorKind, string> = {
  validation: 'The service could not accept a field. Correct the highlighted field and submit again.',
  bounds: 'A value is outside the allowed range. Change it to a value within the range shown.',
  reference_image:
    'The service could not download a reference image. Check that each URL is public, loads in a browser, is at most 20 MB and is a JPG, PNG, BMP, WebP or GIF.',
  task_creation: 'The service could not create the task. Wait a moment and submit again.',
  auth: 'The service refused the access token. Check API_TOKEN on the server running this console, then restart it.',
  rate_limit: 'Too many requests. Wait about 30 seconds before trying again.',
  not_found: 'The service does not know this task id. Check the id; results are kept for about 7 days.',
  unavailable: 'This backend does not offer this endpoint.',
  too_large: 'The request is too large for the service. Shorten it and try again.',
  server: 'The service had an internal problem. Wait a little and try again.',
  network: 'The service could not be reached. Check your connection; your input is kept.',
  malformed: 'The service answered with something this console does not understand.',
  business: 'The service refused the request. Its message says why.',
};

export interface ApiErrorInit {
  kind: ApiErrorKind;
  httpStatus?: number;
  code?: number;
  msg?: string;
  cause?: unknown;
  /** How long the service asked us to wait (Retry-After on 429/503), already kept within bounds. */
  retryAfterMs?: number;
}

/** Retry-After is honoured between these bounds: a shorter wait hammers, a longer one looks dead. */
const RETRY_AFTER_BOUNDS = { minMs: 1_000, maxMs: 5 * 60_000 } as const;

/**
 * Milliseconds from a Retry-After header (delay-seconds or an HTTP date, RFC 9110 §10.2.3), kept
 * between 1 s and 5 min; undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its month ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone reads "-5" as a year.
    const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(RETRY_AFTER_BOUNDS.maxMs, Math.max(RETRY_AFTER_BOUNDS.minMs, ms));
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** 0 when no HTTP response arrived. */
  readonly httpStatus: number;
  readonly code: number | undefined;
  /** The service's own message, verbatim. */
  readonly msg: string;
  readonly explanation: string;
  /** For 100001/100002: the request field the message names. */
  readonly field: string | undefined;
  readonly bounds: FieldBounds | undefined;
  /** Set on 429/503 answers that carried a readable Retry-After. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const msg = init.msg ?? '';
    super(msg || EXPLANATIONS[init.kind], { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.httpStatus = init.httpStatus ?? 0;
    this.code = init.code;
    this.msg = msg;
    this.explanation = EXPLANATIONS[init.kind];
    const parsed = init.kind === 'bounds' || init.kind === 'validation' ? msg : '';
    const bounds = parsed ? parseBoundsMessage(parsed) : undefined;
    this.field = bounds?.field ?? (parsed ? fieldFromMessage(parsed) : undefined);
    this.bounds = bounds && { min: bounds.min, max: bounds.max, current: bounds.current };
    this.retryAfterMs = init.retryAfterMs;
  }

  /** Worth retrying later without changing the request. */
  get isTransient(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server' || this.kind === 'network';
  }
}

/** Classify a response: HTTP status first (auth, rate limit, size, server), then the envelope code. */
export function kindFor(httpStatus: number, code: number | undefined): ApiErrorKind {
  if (httpStatus === 401 || httpStatus === 403) return 'auth';
  if (httpStatus === 429) return 'rate_limit';
  if (httpStatus === 413) return 'too_large';
  if (httpStatus >= 500) return 'server';
  if (code === ERROR_CODES.validation) return 'validation';
  if (code === ERROR_CODES.bounds) return 'bounds';
  if (code === ERROR_CODES.referenceImage) return 'reference_image';
  if (code === ERROR_CODES.taskCreation) return 'task_creation';
  if (code !== undefined && TASK_NOT_FOUND_CODES.has(code)) return 'not_found';
  if (httpStatus === 404)
    return code === undefined || code === 0 || code === 404 ? 'unavailable' : 'not_found';
  return 'business';
}

/**
 * Classify a failed status query. The provider's documents disagree on the code of an unknown task
 * id, so any business code there means "this task could not be read" (`not_found`), with its msg.
 */
export function statusQueryKind(httpStatus: number, code: number | undefined): ApiErrorKind {
  const kind = kindFor(httpStatus, code);
  return kind === 'validation' || kind === 'bounds' || kind === 'business' ? 'not_found' : kind;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
