// Options of the emulator: explicit values win, then environment variables, then defaults chosen
// so a demo feels real (tasks take several seconds) while tests can shrink every duration.
import { DEFAULT_UPLOAD_MAX_MB, parseUploadMaxMb } from '../config/config';
import {
  DEFAULT_UPLOAD_DISK_MAX_MB,
  DEFAULT_UPLOAD_QUOTA_MB_PER_DAY,
  parseUploadLimitMb,
  type UploadTallies,
} from '../http/upload-quota';

/** Provider extras that can be switched off, to show how the console copes with a plainer backend. */
export const DISABLEABLE_ENDPOINTS = [
  'image_generate_query',
  'video_translate_query',
  'target_languages',
  'image_to_video_create',
  'upload',
] as const;
export type DisableableEndpoint = (typeof DISABLEABLE_ENDPOINTS)[number];

export interface EmulatorOptions {
  /** Multiplies every task duration: 1 = demo pace (~8-30 s), 0.05 = tests. `EMULATOR_TIME_SCALE`. */
  timeScale: number;
  /** When set, the only bearer token accepted; otherwise any non-empty token. `EMULATOR_TOKEN`. */
  token: string | undefined;
  /** Provider extras answering 404 as on a backend without them. `EMULATOR_DISABLE` (comma list). */
  disabled: DisableableEndpoint[];
  /** Injectable clock (ms since epoch), for deterministic tests. */
  now: () => number;
  /** Used for reference image downloads and callbacks. */
  fetch: typeof fetch;
  downloadTimeoutMs: number;
  callbackTimeoutMs: number;
  /** First retry delay of a failed callback; doubles on each retry. */
  callbackRetryDelayMs: number;
  /** Uploaded files live in `<dataDir>/uploads` for 7 days. `DATA_DIR`, default ./data. */
  dataDir: string;
  /** Largest upload taken, in bytes. `UPLOAD_MAX_MB`, default 500. */
  uploadMaxBytes: number;
  /** What one person (the request's creator) may upload per day, in bytes. `UPLOAD_QUOTA_MB_PER_DAY`, default 2048. */
  uploadQuotaBytesPerDay: number;
  /** What the uploads folder may hold, in bytes. `UPLOAD_DISK_MAX_MB`, default 10240. */
  uploadDiskMaxBytes: number;
  /** Where the bytes per person per day are counted: the console's database; in memory when unset. */
  uploadTallies?: UploadTallies;
  /** Where callback delivery problems are reported (never tokens or bodies). */
  log: (message: string) => void;
  /**
   * A folder where painted images are kept, so a restart or another emulator serves them without
   * painting again; unset, they are kept in memory only. `EMULATOR_PAINTED_DIR`.
   */
  paintedDir: string | undefined;
}

export function parseTimeScale(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function parseDisabled(raw: string | undefined): DisableableEndpoint[] {
  if (!raw) return [];
  const names = raw.split(',').map((name) => name.trim());
  return DISABLEABLE_ENDPOINTS.filter((endpoint) => names.includes(endpoint));
}

export function resolveOptions(
  overrides: Partial<EmulatorOptions> = {},
  env: NodeJS.ProcessEnv = process.env,
): EmulatorOptions {
  const token = env.EMULATOR_TOKEN?.trim();
  return {
    timeScale: overrides.timeScale ?? parseTimeScale(env.EMULATOR_TIME_SCALE) ?? 1,
    token: 'token' in overrides ? overrides.token : token || undefined,
    disabled: overrides.disabled ?? parseDisabled(env.EMULATOR_DISABLE),
    now: overrides.now ?? Date.now,
    // Late-bound so a test that stubs globalThis.fetch after creating the emulator is honoured.
    fetch: overrides.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    downloadTimeoutMs: overrides.downloadTimeoutMs ?? 10_000,
    callbackTimeoutMs: overrides.callbackTimeoutMs ?? 10_000,
    callbackRetryDelayMs: overrides.callbackRetryDelayMs ?? 1_000,
    dataDir: overrides.dataDir ?? (env.DATA_DIR?.trim() || './data'),
    uploadMaxBytes:
      overrides.uploadMaxBytes ??
      (parseUploadMaxMb(env.UPLOAD_MAX_MB) ?? DEFAULT_UPLOAD_MAX_MB) * 1024 * 1024,
    uploadQuotaBytesPerDay:
      overrides.uploadQuotaBytesPerDay ??
      (parseUploadLimitMb(env.UPLOAD_QUOTA_MB_PER_DAY) ?? DEFAULT_UPLOAD_QUOTA_MB_PER_DAY) * 1024 * 1024,
    uploadDiskMaxBytes:
      overrides.uploadDiskMaxBytes ??
      (parseUploadLimitMb(env.UPLOAD_DISK_MAX_MB) ?? DEFAULT_UPLOAD_DISK_MAX_MB) * 1024 * 1024,
    uploadTallies: overrides.uploadTallies,
    log: overrides.log ?? ((message) => console.warn(`[emulator] ${message}`)),
    paintedDir:
      'paintedDir' in overrides ? overrides.paintedDir : env.EMULATOR_PAINTED_DIR?.trim() || undefined,
  };
}
