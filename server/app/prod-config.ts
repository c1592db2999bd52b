// Configuration of the production server (`npm start`), from environment variables only, checked
// once at start so a bad deployment fails with a readable list instead of half-working.
import { isIP } from 'node:net';
import { DEFAULT_LOGIN_FAILURES_TOTAL } from '../auth/auth-rate-limit';
import { isValidCallbackSecret, SECRET_RULE } from '../callbacks/secret';
import {
  parsePresignAboveMb,
  parseFollowRate,
  parseStreamCount,
  parseUploadMaxMb,
  readServerConfig,
  type ServerConfig,
} from '../config/config';
import { parseTrustedProxies } from '../http/trusted-proxies';
import type { OidcSettings } from '../identity/oidc';
import { isPersonRole } from '../../src/api/roles';
import { parseUploadLimitMb, UPLOAD_LIMIT_MB_MAX } from '../http/upload-quota';

export interface ProdConfig {
  server: ServerConfig;
  host: string;
  port: number;
  /** Turns on the sign-in page; unset means anyone who reaches the server can use the console. */
  appPassword: string | undefined;
  /** Signs session cookies; a random key per start when unset (sessions then end on restart). */
  sessionSecret: string | undefined;
  allowOpenAccess: boolean;
  /** OIDC_*: single sign-on; the redirect URI is PUBLIC_BASE_URL + /auth/callback. */
  oidc: OidcSettings | undefined;
  /** TRUSTED_AUTH_HEADER: the user name an authenticating proxy (a TRUSTED_PROXIES peer) sets. */
  trustedAuthHeader: string | undefined;
  /** TRUSTED_AUTH_ADMINS: values of that header that are admins. */
  trustedAuthAdmins: string[];
  /**
   * Everyone is the local admin: loopback with no sign-in configured and no PUBLIC_BASE_URL, or
   * ALLOW_OPEN_ACCESS=1. Otherwise a sign-in is required (the first admin from a set-up link).
   */
  open: boolean;
  /** LOGIN_FAILURES_TOTAL: failed sign-ins from all clients within 10 minutes before everyone waits. */
  loginFailuresTotal: number;
  /** Host names the server answers to besides loopback, HOST and PUBLIC_BASE_URL's host (DNS rebinding). */
  allowedHosts: string[];
  /** Extra origins the browser may load images and videos from (a CDN of the service). */
  mediaOrigins: string[];
  /** Seeds the emulator with example tasks for stakeholder demos (`npm run demo`). */
  demo: boolean;
  distDir: string;
  /** Not fatal, printed at start. */
  warnings: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function flag(name: string, value: string | undefined, problems: string[]): boolean {
  const v = clean(value)?.toLowerCase();
  if (v === undefined || v === '0' || v === 'false' || v === 'no') return false;
  if (v === '1' || v === 'true' || v === 'yes') return true;
  problems.push(`${name} must be 1 or 0, got "${value}"`);
  return false;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

function parseOrigin(name: string, raw: string, problems: string[]): string | undefined {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    return url.origin;
  } catch {
    problems.push(`${name} must list http(s) origins separated by commas or spaces, got "${raw}"`);
    return undefined;
  }
}

export function readProdConfig(env: NodeJS.ProcessEnv = process.env): ProdConfig {
  const problems: string[] = [];
  const warnings: string[] = [];

  let server: ServerConfig | undefined;
  try {
    server = readServerConfig(env);
  } catch (error) {
    problems.push(`API_BASE_URL: ${(error as Error).message}`);
  }

  const host = clean(env.HOST) ?? '127.0.0.1';
  const rawPort = clean(env.PORT) ?? '8080';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port < 1 || port > 65535)
    problems.push(`PORT must be a number from 1 to 65535, got "${rawPort}"`);

  const appPassword = clean(env.APP_PASSWORD);
  if (appPassword !== undefined && appPassword.length < 8)
    problems.push('APP_PASSWORD must be at least 8 characters long');
  const sessionSecret = clean(env.SESSION_SECRET);
  if (sessionSecret !== undefined && sessionSecret.length < 32)
    problems.push('SESSION_SECRET must be at least 32 characters long');

  const allowOpenAccess = flag('ALLOW_OPEN_ACCESS', env.ALLOW_OPEN_ACCESS, problems);
  const demo = flag('DEMO', env.DEMO, problems);

  const publicBaseUrl = clean(env.PUBLIC_BASE_URL);
  if (publicBaseUrl) parseOrigin('PUBLIC_BASE_URL', publicBaseUrl, problems);

  const mediaOrigins = (clean(env.MEDIA_ORIGINS) ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((raw) => parseOrigin('MEDIA_ORIGINS', raw, problems))
    .filter((origin): origin is string => Boolean(origin));

  checkResultsStore(env, problems);

  const allowedHosts = (clean(env.ALLOWED_HOSTS) ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of allowedHosts) {
    if (!/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(entry))
      problems.push(`ALLOWED_HOSTS must list host names (or .domain for subdomains), got "${entry}"`);
  }

  const callbackSecret = clean(env.CALLBACK_SECRET);
  if (callbackSecret !== undefined && !isValidCallbackSecret(callbackSecret)) {
    problems.push(`${SECRET_RULE} (it is part of a URL path)`);
  }

  checkRatesAndSizes(env, problems);

  const trustedProxies = parseTrustedProxies(env.TRUSTED_PROXIES);
  if (trustedProxies.invalid.length > 0)
    problems.push(
      `TRUSTED_PROXIES must list IP addresses or CIDR ranges (or loopback, or none alone), got "${trustedProxies.invalid.join('", "')}"`,
    );

  const rawLoginFailures = clean(env.LOGIN_FAILURES_TOTAL);
  const loginFailuresTotal =
    rawLoginFailures === undefined ? DEFAULT_LOGIN_FAILURES_TOTAL : Number(rawLoginFailures);
  if (!/^\d+$/.test(rawLoginFailures ?? '1') || !(loginFailuresTotal >= 1 && loginFailuresTotal <= 1_000_000))
    problems.push(
      `LOGIN_FAILURES_TOTAL must be a whole number of failed sign-ins from 1 to 1000000, got "${rawLoginFailures}"`,
    );

  if (server?.apiBaseUrl) {
    if (!server.apiToken)
      warnings.push(
        'API_TOKEN is not set: the service will refuse every request (the console shows a banner)',
      );
    if (demo) problems.push('DEMO=1 runs on the built-in emulator: unset API_BASE_URL');
  }
  const oidc = readOidcSettings(env, publicBaseUrl, problems);

  const trustedAuthHeader = readTrustedAuthHeader(env, problems);

  // Whoever reaches an open console can spend the token through the proxy, or, on the emulator, make
  // the server fetch addresses and POST callbacks for them. Open (everyone the local admin) only on
  // loopback with nothing configured, or when ALLOW_OPEN_ACCESS=1 says so; anywhere else a sign-in
  // is required, and a console without one prints a one-time link that makes its first admin.
  const signInConfigured = Boolean(appPassword || oidc || trustedAuthHeader);
  const published = !isLoopbackHost(host) || Boolean(publicBaseUrl);
  const open = allowOpenAccess || (!signInConfigured && !published);
  if (allowOpenAccess && published)
    warnings.push(
      'ALLOW_OPEN_ACCESS=1: everyone who reaches this console is its admin. Prefer TRUSTED_AUTH_HEADER behind an authenticating proxy',
    );
  if (appPassword)
    warnings.push(
      'APP_PASSWORD signs everyone in as one shared account, so the record cannot tell teammates apart. ' +
        'To move: sign in, invite each person from People (or set OIDC_ISSUER for single sign-on), then unset APP_PASSWORD (docs/sign-in.md)',
    );

  if (problems.length > 0 || !server) throw new ConfigError(problems);
  return {
    server,
    host,
    port,
    appPassword,
    sessionSecret,
    allowOpenAccess,
    oidc,
    trustedAuthHeader,
    trustedAuthAdmins: list(env.TRUSTED_AUTH_ADMINS),
    open,
    allowedHosts,
    mediaOrigins,
    demo,
    loginFailuresTotal,
    distDir: clean(env.DIST_DIR) ?? 'dist',
    warnings,
  };
}

/**
 * How people get in, for the start-up line: which sign-ins are in force, or why it is open.
 * `sign-in required: single sign-on (accounts.example.com), local accounts`.
 */
export function signInSummary(config: ProdConfig): string {
  if (config.open)
    return config.allowOpenAccess
      ? 'open access (ALLOW_OPEN_ACCESS=1): everyone who reaches it is an admin'
      : 'open access on loopback (no sign-in configured)';
  const ways = [
    config.trustedAuthHeader && `the ${config.trustedAuthHeader} header from TRUSTED_PROXIES`,
    config.oidc && `single sign-on (${new URL(config.oidc.issuer).host})`,
    config.appPassword && 'the shared APP_PASSWORD',
    'local accounts',
  ].filter(Boolean);
  return `sign-in required: ${ways.join(', ')}`;
}

/** Single sign-on's settings from OIDC_*, when OIDC_ISSUER is set and they hold; what is wrong goes in `problems`. */
function readOidcSettings(
  env: NodeJS.ProcessEnv,
  publicBaseUrl: string | undefined,
  problems: string[],
): OidcSettings | undefined {
  const issuer = clean(env.OIDC_ISSUER);
  const clientId = clean(env.OIDC_CLIENT_ID);
  if (issuer || clientId) {
    let issuerUrl: URL | undefined;
    try {
      issuerUrl = new URL(issuer ?? '');
    } catch {
      problems.push(`OIDC_ISSUER must be the identity provider's issuer URL, got "${issuer ?? ''}"`);
    }
    if (!clientId) problems.push('OIDC_CLIENT_ID must be set with OIDC_ISSUER');
    if (!publicBaseUrl)
      problems.push(
        'PUBLIC_BASE_URL must be set with OIDC_ISSUER: the redirect URI is PUBLIC_BASE_URL/auth/callback',
      );
    const rawDefault = (clean(env.OIDC_DEFAULT_ROLE) ?? 'viewer').toLowerCase();
    if (rawDefault !== 'none' && !isPersonRole(rawDefault))
      problems.push(
        `OIDC_DEFAULT_ROLE must be viewer, creator, admin or none, got "${env.OIDC_DEFAULT_ROLE}"`,
      );
    const httpIssuer = issuerUrl?.protocol === 'http:';
    if (issuerUrl && httpIssuer && !isLoopbackHost(issuerUrl.hostname))
      problems.push(`OIDC_ISSUER must be an https URL (http only on loopback), got "${issuer}"`);
    if (issuerUrl && clientId && publicBaseUrl)
      return {
        issuer: issuerUrl.href,
        clientId,
        clientSecret: clean(env.OIDC_CLIENT_SECRET),
        redirectUri: `${publicBaseUrl.replace(/\/+$/, '')}/auth/callback`,
        rolesClaim: clean(env.OIDC_ROLES_CLAIM) ?? 'groups',
        adminValues: list(env.OIDC_ADMIN_VALUES),
        creatorValues: list(env.OIDC_CREATOR_VALUES),
        defaultRole: rawDefault === 'none' ? 'none' : isPersonRole(rawDefault) ? rawDefault : 'viewer',
        allowedDomains: list(env.OIDC_ALLOWED_DOMAINS).map((d) => d.toLowerCase().replace(/^@/, '')),
        allowHttp: httpIssuer,
      };
  }
  return undefined;
}

/** The rates, sizes and counts of the environment: each unset or within its bounds, else a line in `problems`. */
function checkRatesAndSizes(env: NodeJS.ProcessEnv, problems: string[]): void {
  const rateLimit = clean(env.CALLBACK_RATE_LIMIT);
  if (rateLimit !== undefined && !(Number(rateLimit) >= 0))
    problems.push(
      `CALLBACK_RATE_LIMIT must be a number ≥ 0 (callbacks per second per sender), got "${rateLimit}"`,
    );

  const timeScale = clean(env.EMULATOR_TIME_SCALE);
  if (timeScale !== undefined && !(Number(timeScale) >= 0))
    problems.push(`EMULATOR_TIME_SCALE must be a number ≥ 0, got "${timeScale}"`);

  for (const name of ['UPLOAD_QUOTA_MB_PER_DAY', 'UPLOAD_DISK_MAX_MB'] as const) {
    const raw = clean(env[name]);
    if (raw !== undefined && parseUploadLimitMb(raw) === undefined)
      problems.push(
        `${name} must be a whole number of megabytes from 1 to ${UPLOAD_LIMIT_MB_MAX}, got "${raw}"`,
      );
  }

  const uploadMaxMb = clean(env.UPLOAD_MAX_MB);
  if (uploadMaxMb !== undefined && parseUploadMaxMb(uploadMaxMb) === undefined)
    problems.push(`UPLOAD_MAX_MB must be a whole number of megabytes from 1 to 100000, got "${uploadMaxMb}"`);

  for (const name of ['STREAMS_PER_SESSION', 'STREAMS_TOTAL'] as const) {
    const raw = clean(env[name]);
    if (raw !== undefined && parseStreamCount(raw) === undefined)
      problems.push(`${name} must be a whole number of event streams from 1 to 100000, got "${raw}"`);
  }

  const followRate = clean(env.FOLLOW_RATE_PER_SECOND);
  if (followRate !== undefined && parseFollowRate(followRate) === undefined)
    problems.push(
      `FOLLOW_RATE_PER_SECOND must be a whole number of status requests per second from 1 to 1000, got "${followRate}"`,
    );
}

/**
 * A comma-separated list, as documented: a value may hold spaces (Tailscale's user names, a group's
 * display name), so a space does not split it.
 */
function list(raw: string | undefined): string[] {
  return (clean(raw) ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

/** RESULTS_STORE and its S3 settings, when set, make sense together; else lines in `problems`. */
function checkResultsStore(env: NodeJS.ProcessEnv, problems: string[]): void {
  const resultsStore = clean(env.RESULTS_STORE)?.toLowerCase();
  if (resultsStore !== undefined && resultsStore !== 'disk' && resultsStore !== 's3')
    problems.push(`RESULTS_STORE must be disk or s3, got "${resultsStore}"`);
  if (resultsStore === 's3' && !clean(env.S3_BUCKET)) problems.push('RESULTS_STORE=s3 needs S3_BUCKET');
  const presignAbove = clean(env.S3_PRESIGN_ABOVE_MB);
  if (presignAbove !== undefined && parsePresignAboveMb(presignAbove) === undefined)
    problems.push(`S3_PRESIGN_ABOVE_MB must be a whole number from 0 to 100000, got "${presignAbove}"`);
  const s3Endpoint = clean(env.S3_ENDPOINT);
  if (s3Endpoint) parseOrigin('S3_ENDPOINT', s3Endpoint, problems);
}

/** TRUSTED_AUTH_HEADER, lower case, when it is a header name and the proxy setting it is named. */
function readTrustedAuthHeader(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  const trustedAuthHeader = clean(env.TRUSTED_AUTH_HEADER)?.toLowerCase();
  if (trustedAuthHeader !== undefined && !/^[a-z0-9-]+$/.test(trustedAuthHeader))
    problems.push(`TRUSTED_AUTH_HEADER must be a header name, got "${env.TRUSTED_AUTH_HEADER}"`);
  // Unset, TRUSTED_PROXIES means loopback: any process on this machine could then name itself an
  // admin in the header. The proxy's addresses must be written down.
  const proxiesNamed = clean(env.TRUSTED_PROXIES);
  if (trustedAuthHeader && (!proxiesNamed || proxiesNamed.toLowerCase() === 'none'))
    problems.push(
      'TRUSTED_AUTH_HEADER needs TRUSTED_PROXIES set to the addresses of the proxy that sets the header ' +
        '(e.g. TRUSTED_PROXIES=127.0.0.1/32 for a proxy on this machine): otherwise anyone who can reach ' +
        'the port could send the header and be signed in as anyone',
    );
  return trustedAuthHeader;
}
