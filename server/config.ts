// Configuration of the Node side, read from environment variables only.
export interface ServerConfig {
  /** The real service, without the trailing `/v1`; unset means the built-in emulator. */
  apiBaseUrl: string | undefined;
  /** Never sent to the browser, never logged. */
  apiToken: string | undefined;
  /** Folder for stateful data (the callback inbox). */
  dataDir: string;
  /** Public address of this console, used to build the callback URL the service can reach. */
  publicBaseUrl: string | undefined;
  callbackSecret: string | undefined;
}

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** `https://api.example.com/v1/` and `https://api.example.com` both mean the same base. */
export function normalizeBaseUrl(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`API_BASE_URL must be an http(s) URL, got ${url.protocol}`);
  }
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const base = clean(env.API_BASE_URL);
  return {
    apiBaseUrl: base ? normalizeBaseUrl(base) : undefined,
    apiToken: clean(env.API_TOKEN),
    dataDir: clean(env.DATA_DIR) ?? './data',
    publicBaseUrl: clean(env.PUBLIC_BASE_URL)?.replace(/\/+$/, ''),
    callbackSecret: clean(env.CALLBACK_SECRET),
  };
}
