// Task changes are announced on TASKS_CHANNEL when their transaction commits. A payload is one task
// id, or a JSON array of ids when a group of callbacks moved many tasks at once: one NOTIFY per
// group instead of one per task. A NOTIFY payload must stay under 8,000 bytes, hence the chunks.
const PAYLOAD_MAX = 7_000;

/** JSON arrays of the ids, each short enough for one NOTIFY. */
export function notifyPayloads(ids: string[]): string[] {
  const payloads: string[] = [];
  let chunk: string[] = [];
  let size = 2;
  for (const id of ids) {
    const length = JSON.stringify(id).length + 1;
    if (chunk.length && size + length > PAYLOAD_MAX) {
      payloads.push(JSON.stringify(chunk));
      chunk = [];
      size = 2;
    }
    chunk.push(id);
    size += length;
  }
  if (chunk.length) payloads.push(JSON.stringify(chunk));
  return payloads;
}

/** The task ids a payload names (an id that merely looks like JSON is still one id). */
export function announcedIds(payload: string): string[] {
  if (payload.startsWith('[')) {
    try {
      const ids: unknown = JSON.parse(payload);
      if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) return ids as string[];
    } catch {
      // one id
    }
  }
  return payload ? [payload] : [];
}
