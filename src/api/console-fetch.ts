// The browser's calls to the console's own endpoints (the api modules beside each feature use it):
// JSON in and out, and a failure thrown with the server's own words (`msg`), so each screen says why
// next to what failed.
export async function consoleJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => ({}))) as T & { msg?: string };
  if (!response.ok) throw new Error(body.msg ?? `The console answered HTTP ${response.status}`);
  return body;
}

/** The same, for the endpoints that answer in the envelope `{code, msg, data}`: the `data`. */
export async function consoleData<T>(path: string, init?: RequestInit): Promise<T> {
  const body = await consoleJson<{ data?: T }>(path, init);
  if (body.data === undefined) throw new Error('The console answered without data');
  return body.data;
}
