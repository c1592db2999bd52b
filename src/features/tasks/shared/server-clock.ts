// The server's clock, as this browser estimates it from the `Date` header of the team record's
// answers. Times on screen come from the record (the server's clock); "running for" and "added …
// ago" measure from them with this clock, so a browser whose own clock is off reads the same as
// every other viewer.

/** Below this a difference is the header's one-second resolution and the trip, not a wrong clock. */
const NOISE_MS = 2_000;
let offsetMs = 0;

/** Called with each answer of the team's record: `sentAt` is the browser's time the request left. */
export function noteServerDate(dateHeader: string | null, sentAt: number, receivedAt = Date.now()): void {
  const server = dateHeader ? Date.parse(dateHeader) : NaN;
  if (!Number.isFinite(server)) return;
  // The header is the second the server answered in: compare with the middle of the trip.
  const offset = server + 500 - (sentAt + receivedAt) / 2;
  offsetMs = Math.abs(offset) > NOISE_MS ? offset : 0;
}

/** Now, by the server's clock as best known. */
export const serverNow = () => Date.now() + offsetMs;
