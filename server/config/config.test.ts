import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl, parseUploadMaxMb, readServerConfig, parseFollowRate } from './config';
import { readProdConfig } from '../app/prod-config';

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.keevx.com/v1', 'https://api.keevx.com'],
    ['https://api.example.com/v1/', 'https://api.example.com'],
    ['https://api.example.com/v1//', 'https://api.example.com'],
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com///', 'https://api.example.com'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.0.0.1:8787/v1', 'http://127.0.0.1:8787'],
    ['https://gateway.example.com/media/v1/', 'https://gateway.example.com/media'],
    ['https://gateway.example.com/media//v1', 'https://gateway.example.com/media'],
    ['https://API.Example.com:443/V1', 'https://api.example.com'],
    ['  https://api.example.com/v1  ', 'https://api.example.com'],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeBaseUrl(raw)).toBe(expected);
  });

  it('keeps a /v1 that is not the last segment', () => {
    expect(normalizeBaseUrl('https://api.example.com/v1/tenant')).toBe('https://api.example.com/v1/tenant');
    expect(normalizeBaseUrl('https://api.example.com/v10')).toBe('https://api.example.com/v10');
  });

  it('drops query, fragment and credentials so proxied URLs stay well formed', () => {
    expect(normalizeBaseUrl('https://api.example.com/v1?region=eu#top')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('https://user:pass@api.example.com/v1')).toBe('https://api.example.com');
  });

  it.each(['ftp://api.example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://api.example.com'])(
    'refuses %s',
    (raw) => {
      expect(() => normalizeBaseUrl(raw)).toThrow(/http\(s\)/);
    },
  );

  it('refuses something that is not a URL without echoing it', () => {
    expect(() => normalizeBaseUrl('api.example.com')).toThrow(/absolute http\(s\) URL/);
    expect(() => normalizeBaseUrl('sk-live-1234')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('sk-live-1234') }) as Error,
    );
  });
});

describe('readServerConfig', () => {
  it('means the built-in emulator when API_BASE_URL is unset or blank', () => {
    expect(readServerConfig({})).toEqual({
      apiBaseUrl: undefined,
      apiToken: undefined,
      dataDir: './data',
      publicBaseUrl: undefined,
      callbackSecret: undefined,
      uploadMaxBytes: 500 * 1024 * 1024,
      uploadQuotaBytesPerDay: 2048 * 1024 * 1024,
      uploadDiskMaxBytes: 10240 * 1024 * 1024,
      trustedProxies: expect.any(Function),
      mediaOrigins: [],
      webhookPrivateOrigins: [],
      results: { store: 'disk', maxBytes: 5000 * 1024 * 1024 },
    });
    expect(readServerConfig({ API_BASE_URL: '   ', API_TOKEN: '' }).apiBaseUrl).toBeUndefined();
  });

  it('reads FOLLOW_RATE_PER_SECOND from 1 to 1000, and nothing else', () => {
    expect(parseFollowRate('1')).toBe(1);
    expect(parseFollowRate(' 1000 ')).toBe(1000);
    expect(parseFollowRate('0')).toBeUndefined();
    expect(parseFollowRate('1001')).toBeUndefined();
    expect(parseFollowRate('2.5')).toBeUndefined();
    expect(parseFollowRate(undefined)).toBeUndefined();
    expect(readServerConfig({ FOLLOW_RATE_PER_SECOND: '25' }).followRatePerSecond).toBe(25);
  });

  it('reads WEBHOOK_PRIVATE_ORIGINS as origins, dropping what is no http(s) URL', () => {
    expect(
      readServerConfig({
        WEBHOOK_PRIVATE_ORIGINS: 'http://chat.internal:8065/hooks, ftp://x, https://10.0.0.5',
      }).webhookPrivateOrigins,
    ).toEqual(['http://chat.internal:8065', 'https://10.0.0.5']);
  });

  it('reads where results are kept: disk by default, S3 with its bucket, endpoint, region and path style', () => {
    expect(
      readServerConfig({
        RESULTS_STORE: 's3',
        S3_BUCKET: 'team-results',
        S3_ENDPOINT: 'https://minio.example.com',
        S3_REGION: 'eu-west-1',
        S3_FORCE_PATH_STYLE: 'true',
        RESULTS_MAX_MB: '100',
      }).results,
    ).toEqual({
      store: 's3',
      s3: {
        bucket: 'team-results',
        endpoint: 'https://minio.example.com',
        region: 'eu-west-1',
        forcePathStyle: true,
        prefix: undefined,
        // Larger kept files redirect to a presigned URL: 8 MB unless S3_PRESIGN_ABOVE_MB says otherwise.
        presignAboveBytes: 8 * 1024 * 1024,
      },
      maxBytes: 100 * 1024 * 1024,
    });
    const s3 = (presign: string) =>
      readServerConfig({ RESULTS_STORE: 's3', S3_BUCKET: 'b', S3_PRESIGN_ABOVE_MB: presign }).results?.s3;
    expect(s3('0')?.presignAboveBytes).toBe(0);
    expect(s3('64')?.presignAboveBytes).toBe(64 * 1024 * 1024);
    expect(readServerConfig({ RESULTS_KEEP_DAYS: '30' }).results?.keepDays).toBe(30);
    expect(readServerConfig({ RESULTS_KEEP_DAYS: 'forever' }).results?.keepDays).toBeUndefined();
    expect(readServerConfig({ RESULTS_STORE: 'disk', S3_BUCKET: 'b' }).results).toEqual({
      store: 'disk',
      maxBytes: 5000 * 1024 * 1024,
    });
  });

  it('reads UPLOAD_MAX_MB as whole megabytes; anything else keeps the 500 MB default', () => {
    expect(readServerConfig({ UPLOAD_MAX_MB: '20' }).uploadMaxBytes).toBe(20 * 1024 * 1024);
    for (const raw of ['0', '-5', '1.5', 'lots', '100001'])
      expect(readServerConfig({ UPLOAD_MAX_MB: raw }).uploadMaxBytes).toBe(500 * 1024 * 1024);
    expect(parseUploadMaxMb('100000')).toBe(100_000);
  });

  it('reads UPLOAD_QUOTA_MB_PER_DAY and UPLOAD_DISK_MAX_MB from 1 to 10000000 MB; anything else keeps the default', () => {
    const MB = 1024 * 1024;
    expect(readServerConfig({ UPLOAD_QUOTA_MB_PER_DAY: '1' }).uploadQuotaBytesPerDay).toBe(MB);
    expect(readServerConfig({ UPLOAD_DISK_MAX_MB: '10000000' }).uploadDiskMaxBytes).toBe(10_000_000 * MB);
    for (const raw of ['0', '10000001', '1.5', 'lots']) {
      expect(readServerConfig({ UPLOAD_QUOTA_MB_PER_DAY: raw }).uploadQuotaBytesPerDay).toBe(2048 * MB);
      expect(readServerConfig({ UPLOAD_DISK_MAX_MB: raw }).uploadDiskMaxBytes).toBe(10240 * MB);
    }
  });

  it('normalizes the base URL and trims the token', () => {
    const config = readServerConfig({ API_BASE_URL: 'https://api.keevx.com/v1/', API_TOKEN: '  tok-123\n' });
    expect(config.apiBaseUrl).toBe('https://api.keevx.com');
    expect(config.apiToken).toBe('tok-123');
  });

  it('treats a blank token as missing', () => {
    expect(
      readServerConfig({ API_BASE_URL: 'https://api.example.com', API_TOKEN: '  ' }).apiToken,
    ).toBeUndefined();
  });

  it('reads the data folder, public address and callback secret', () => {
    const config = readServerConfig({
      DATA_DIR: '/var/lib/console',
      PUBLIC_BASE_URL: 'https://console.example.com//',
      CALLBACK_SECRET: 's3',
    });
    expect(config).toMatchObject({
      dataDir: '/var/lib/console',
      publicBaseUrl: 'https://console.example.com',
      callbackSecret: 's3',
    });
  });

  it('fails loudly on an invalid API_BASE_URL', () => {
    expect(() => readServerConfig({ API_BASE_URL: 'ftp://x' })).toThrow(/http\(s\)/);
  });
});

describe('STREAMS_PER_SESSION and STREAMS_TOTAL', () => {
  it('are unset by default (server/http/stream-limits.ts has the defaults, 8 and 200)', () => {
    expect(readServerConfig({})).toMatchObject({ streamsPerSession: undefined, streamsTotal: undefined });
  });

  it.each([
    ['1', 1],
    ['100000', 100_000],
    [' 16 ', 16],
  ])('take %j', (raw, value) => {
    expect(readServerConfig({ STREAMS_PER_SESSION: raw, STREAMS_TOTAL: raw })).toMatchObject({
      streamsPerSession: value,
      streamsTotal: value,
    });
    expect(() => readProdConfig({ STREAMS_PER_SESSION: raw, STREAMS_TOTAL: raw })).not.toThrow();
  });

  it.each(['0', '100001', '-1', '2.5', 'many'])('refuse %j at start with a readable message', (raw) => {
    expect(() => readProdConfig({ STREAMS_PER_SESSION: raw })).toThrow(
      `STREAMS_PER_SESSION must be a whole number of event streams from 1 to 100000, got "${raw}"`,
    );
    expect(() => readProdConfig({ STREAMS_TOTAL: raw })).toThrow(/STREAMS_TOTAL must be a whole number/);
  });
});

describe('FOLLOW_RATE_PER_SECOND at start', () => {
  it.each(['1', '1000'])('takes %j', (raw) => {
    expect(() => readProdConfig({ FOLLOW_RATE_PER_SECOND: raw })).not.toThrow();
  });

  it.each(['0', '1001', '-1', '2.5', 'fast'])('refuses %j with a readable message', (raw) => {
    expect(() => readProdConfig({ FOLLOW_RATE_PER_SECOND: raw })).toThrow(
      `FOLLOW_RATE_PER_SECOND must be a whole number of status requests per second from 1 to 1000, got "${raw}"`,
    );
  });
});
