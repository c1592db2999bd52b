// GET and POST /__console/stars (server/boards/stars.ts): the results I starred, and starring or
// unstarring some. In the Tasks screens' shared chunk with the star buttons that use it. The
// lightbox (plain DOM, importing nothing so the screens carry no list of chunks for it) calls the
// same route itself.

export async function readStars(signal?: AbortSignal): Promise<ReadonlySet<string>> {
  const response = await fetch('/__console/stars', { headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { data?: { ids?: string[] } };
  return new Set(body.data?.ids ?? []);
}

/** Stars or unstars the tasks; throws the server's reason when it refuses (the bound). */
export async function sendStars(ids: readonly string[], starred: boolean): Promise<void> {
  const response = await fetch('/__console/stars', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ids, starred }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { msg?: string };
    throw new Error(body.msg ?? `HTTP ${response.status}`);
  }
}
