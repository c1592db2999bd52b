// GET /__console/tasks/hidden: the tasks I hid from my view (server/tasks/bulk.ts), read as the
// Tasks screen opens. Hiding and bringing back are the bulk bar's (./bulk-api.ts, loaded with it).
// Beside the screen rather than in team-tasks.ts, so the screen's own chunk holds it.

export async function readHiddenIds(signal?: AbortSignal): Promise<ReadonlySet<string>> {
  const response = await fetch('/__console/tasks/hidden', {
    headers: { accept: 'application/json' },
    signal,
  });
  const body = (await response.json()) as { data?: { ids?: string[] } };
  return new Set(body.data?.ids ?? []);
}
