// Configuration of the Node side, read from environment variables only.
import { parseTrustedProxies, type TrustedProxies } from '../http/trusted-proxies';
import {
  DEFAULT_UPLOAD_DISK_MAX_MB,
  DEFAULT_UPLOAD_QUOTA_MB_PER_DAY,
  parseUploadLimitMb,
} from '../http/upload-quota';

export interface ServerConfig {
  /** The real service, without the trailing `/v1`; unset means the built-in emulator. */
  apiBaseUrl: string | undefined;
  /** Never sent to the browser, never logged. */
  apiToken: string | undefined;
  /** Folder for stateful data: the embedded database (unless databaseUrl) and the callback secret. */
  dataDir: string;
  /** `postgres://…`: a PostgreSQL server shared by every instance; unset = PGlite in dataDir. */
  databaseUrl?: string | undefined;
  /** Public address of this console, used to build the callback URL the service can reach. */
  publicBaseUrl: string | undefined;
  callbackSecret: string | undefined;
  /** CALLBACK_RATE_LIMIT: callbacks per second one sender may POST (burst 10×); 0 = no brake. */
  callbackRateLimit: number | undefined;
  /** Largest upload (multipart body) the proxy and the emulator take, in bytes. `UPLOAD_MAX_MB`. */
  uploadMaxBytes: number;
  /** What one person may upload per day through the proxy or the emulator, in bytes. `UPLOAD_QUOTA_MB_PER_DAY`. */
  uploadQuotaBytesPerDay?: number;
  /** What the emulator's uploads folder may hold, in bytes. `UPLOAD_DISK_MAX_MB`. */
  uploadDiskMaxBytes?: number;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For is believed (loopback when unset); server/http/trusted-proxies.ts. */
  trustedProxies?: TrustedProxies;
  /** STREAMS_PER_SESSION: open event streams per sign-in session (or client address); default 8. */
  streamsPerSession?: number;
  /** STREAMS_TOTAL: open event streams of this process; default 200. */
  streamsTotal?: number;
  /**
   * MEDIA_ORIGINS: origins the service's result files come from (besides the API's own). A callback
   * that no status query can confirm may bring links to these only (server/callbacks/hints.ts).
   */
  mediaOrigins?: string[];
  /** Where result files are kept (server/results): DATA_DIR/results, or an S3-compatible store. */
  results?: ResultsConfig;
  /** FOLLOW_RATE_PER_SECOND: status requests per second to the service, all instances together. */
  followRatePerSecond?: number;
  /**
   * WEBHOOK_PRIVATE_ORIGINS: origins on the team's own network (or this machine) that webhooks may
   * post to; every other webhook address must be public (checked after DNS, as every outbound request).
   */
  webhookPrivateOrigins?: string[];
}

/**
 * The team's status requests per second by default: 10,000 running tasks are then each asked about
 * every 17 minutes at worst, and the service never sees more than this, however many tasks run.
 */
export const DEFAULT_FOLLOW_RATE_PER_SECOND = 10;

/** FOLLOW_RATE_PER_SECOND: a whole number from 1 to 1,000; undefined when unset or out of range. */
export function parseFollowRate(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= 1000 ? value : undefined;
}

export interface ResultsConfig {
  /** RESULTS_STORE: `disk` (default) or `s3`. */
  store: 'disk' | 's3';
  /**
   * S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_PREFIX; credentials from the AWS SDK's
   * chain. S3_PRESIGN_ABOVE_MB: files larger than this are answered with a redirect to a
   * short-lived presigned URL (default 8; 0 = never, the console streams every file itself).
   */
  s3?: {
    bucket: string;
    endpoint?: string;
    region?: string;
    forcePathStyle: boolean;
    prefix?: string;
    presignAboveBytes?: number;
  };
  /** RESULTS_MAX_MB: the largest file copied; default 5,000 MB. */
  maxBytes: number;
  /** RESULTS_KEEP_DAYS: kept files older than this many days are removed; unset = kept for good. */
  keepDays?: number;
}

const DEFAULT_RESULTS_MAX_MB = 5000;
const DEFAULT_PRESIGN_ABOVE_MB = 8;
const MB = 1024 * 1024;

/** `S3_PRESIGN_ABOVE_MB`: a whole number from 0 (never redirect) to 100,000; undefined when unset or invalid. */
export function parsePresignAboveMb(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value <= 100_000 ? value : undefined;
}

/**
 * The origins a browser is redirected to for a presigned download (S3_PRESIGN_ABOVE_MB): the page's
 * Content-Security-Policy lets images and videos load from them. None when redirects are off.
 */
export function presignOrigins(results: ResultsConfig | undefined): string[] {
  const s3 = results?.store === 's3' ? results.s3 : undefined;
  if (!s3?.presignAboveBytes) return [];
  if (s3.endpoint) {
    const url = new URL(s3.endpoint);
    return [s3.forcePathStyle ? url.origin : `${url.protocol}//${s3.bucket}.${url.host}`];
  }
  // AWS S3 itself: the SDK's regional virtual-hosted (or path-style) address, and the global one.
  const region = s3.region ?? 'us-east-1';
  return s3.forcePathStyle
    ? [`https://s3.${region}.amazonaws.com`, 'https://s3.amazonaws.com']
    : [`https://${s3.bucket}.s3.${region}.amazonaws.com`, `https://${s3.bucket}.s3.amazonaws.com`];
}

function readResultsConfig(env: NodeJS.ProcessEnv): ResultsConfig {
  const store = clean(env.RESULTS_STORE)?.toLowerCase() === 's3' ? 's3' : 'disk';
  const bucket = clean(env.S3_BUCKET);
  return {
    store,
    ...(store === 's3' &&
      bucket && {
        s3: {
          bucket,
          endpoint: clean(env.S3_ENDPOINT),
          region: clean(env.S3_REGION) ?? clean(env.AWS_REGION),
          forcePathStyle: /^(1|true|yes)$/i.test(clean(env.S3_FORCE_PATH_STYLE) ?? ''),
          prefix: clean(env.S3_PREFIX),
          presignAboveBytes: (parsePresignAboveMb(env.S3_PRESIGN_ABOVE_MB) ?? DEFAULT_PRESIGN_ABOVE_MB) * MB,
        },
      }),
    maxBytes: (parseUploadMaxMb(env.RESULTS_MAX_MB) ?? DEFAULT_RESULTS_MAX_MB) * 1024 * 1024,
    ...(parseUploadMaxMb(env.RESULTS_KEEP_DAYS) && { keepDays: parseUploadMaxMb(env.RESULTS_KEEP_DAYS) }),
  };
}

export const DEFAULT_UPLOAD_MAX_MB = 500;

/** `UPLOAD_MAX_MB`: a whole number of megabytes from 1 to 100,000; undefined when unset or invalid. */
export function parseUploadMaxMb(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= 100_000 ? value : undefined;
}

/** A whole number from 1 to 100,000 (STREAMS_PER_SESSION, STREAMS_TOTAL); undefined when unset or invalid. */
export function parseStreamCount(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= 100_000 ? value : undefined;
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * `https://api.example.com/v1/` and `https://api.example.com` both mean the same base. Only origin
 * and path are kept: a query or fragment would end up in the middle of every proxied URL, and
 * credentials embedded in the URL must not travel with every request.
 */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // The value itself is not echoed: a mistyped variable could hold the token.
    throw new Error('API_BASE_URL must be an absolute http(s) URL such as https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`API_BASE_URL must be an http(s) URL, got ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const base = clean(env.API_BASE_URL);
  return {
    apiBaseUrl: base ? normalizeBaseUrl(base) : undefined,
    apiToken: clean(env.API_TOKEN),
    dataDir: clean(env.DATA_DIR) ?? './data',
    databaseUrl: clean(env.DATABASE_URL),
    publicBaseUrl: clean(env.PUBLIC_BASE_URL)?.replace(/\/+$/, ''),
    callbackSecret: clean(env.CALLBACK_SECRET),
    callbackRateLimit:
      clean(env.CALLBACK_RATE_LIMIT) === undefined ? undefined : Number(env.CALLBACK_RATE_LIMIT),
    uploadMaxBytes: (parseUploadMaxMb(env.UPLOAD_MAX_MB) ?? DEFAULT_UPLOAD_MAX_MB) * 1024 * 1024,
    uploadQuotaBytesPerDay:
      (parseUploadLimitMb(env.UPLOAD_QUOTA_MB_PER_DAY) ?? DEFAULT_UPLOAD_QUOTA_MB_PER_DAY) * 1024 * 1024,
    uploadDiskMaxBytes:
      (parseUploadLimitMb(env.UPLOAD_DISK_MAX_MB) ?? DEFAULT_UPLOAD_DISK_MAX_MB) * 1024 * 1024,
    // Entries that are not addresses trust nothing; npm start refuses them (server/app/prod-config.ts).
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES).trusted,
    // Defaults in server/http/stream-limits.ts.
    streamsPerSession: parseStreamCount(env.STREAMS_PER_SESSION),
    streamsTotal: parseStreamCount(env.STREAMS_TOTAL),
    mediaOrigins: parseOrigins(env.MEDIA_ORIGINS),
    results: readResultsConfig(env),
    followRatePerSecond: parseFollowRate(env.FOLLOW_RATE_PER_SECOND),
    webhookPrivateOrigins: parseOrigins(env.WEBHOOK_PRIVATE_ORIGINS),
  };
}

/** The origins of a space- or comma-separated list; what is no http(s) URL is left out (prod-config refuses it). */
function parseOrigins(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s,]+/).flatMap((entry) => {
    try {
      const url = new URL(entry);
      return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [];
    } catch {
      return [];
    }
  });
}
