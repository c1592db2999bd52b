// How much one person may upload per day (UPLOAD_QUOTA_MB_PER_DAY). Ten 100 MB files went through in
// seconds, 1.1 GB kept for 7 days on the database's disk: nothing stopped a signed-in teammate (or a
// script with their cookie) from filling it. Every upload's bytes are charged as they stream, chunk by
// chunk, so uploads running side by side cannot pass the limit together; a refused or broken upload
// gives its bytes back. "Person" is who the team record names as the creator (server/identity/
// creator.ts creatorOf: the verified person's user id); every upload without one shares one
// allowance. Kept in memory per process: a restart forgets the day's tallies (the disk limit,
// measured on disk, still holds).

export const DEFAULT_UPLOAD_QUOTA_MB_PER_DAY = 2048;
export const DEFAULT_UPLOAD_DISK_MAX_MB = 10240;
/** Largest value UPLOAD_QUOTA_MB_PER_DAY and UPLOAD_DISK_MAX_MB take: 10 TB. */
export const UPLOAD_LIMIT_MB_MAX = 10_000_000;

const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A whole number of megabytes from 1 to UPLOAD_LIMIT_MB_MAX; undefined when unset or invalid. */
export function parseUploadLimitMb(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= UPLOAD_LIMIT_MB_MAX ? value : undefined;
}

/** Why an upload stops: the words are shown beside the form's field, as the answer's message. */
export interface UploadRefusal {
  status: 413 | 429 | 507;
  message: string;
  /** Seconds until trying again can help (the daily allowance's next day). */
  retryAfterSeconds?: number;
}

/** An upload stopped by a limit while it streamed: carries the answer to give. */
export class UploadRefused extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(refusal.message);
  }
}

/** Whole megabytes, rounded down: "2,047 MB" of a limit is never shown as all of it. */
export const megabytes = (bytes: number) => `${Math.floor(bytes / MB).toLocaleString('en-US')} MB`;

/** One upload's share of its person's day: charged as it streams, kept or given back at its end. */
export interface UploadAllowance {
  /** Charges `bytes`; the refusal when they would take the person past the day's limit (nothing charged). */
  take(bytes: number): UploadRefusal | undefined;
  /** Bytes the person may still upload today. */
  remaining(): number;
  /** The upload was refused or broke off: its bytes are given back. */
  release(): void;
}

interface Tally {
  day: number;
  bytes: number;
}

export class UploadQuota {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    readonly bytesPerDay: number = DEFAULT_UPLOAD_QUOTA_MB_PER_DAY * MB,
    private readonly now: () => number = Date.now,
  ) {}

  private today(): number {
    return Math.floor(this.now() / DAY_MS);
  }

  private tally(person: string, day: number): Tally {
    let tally = this.tallies.get(person);
    if (!tally || tally.day !== day) {
      tally = { day, bytes: 0 };
      this.tallies.set(person, tally);
      // Yesterday's tallies are worth nothing: drop them now and then.
      if (this.tallies.size > 1000)
        for (const [key, value] of this.tallies) if (value.day !== day) this.tallies.delete(key);
    }
    return tally;
  }

  /** Bytes `person` (null: no name) has uploaded today. */
  used(person: string | null): number {
    const tally = this.tallies.get(person ?? '');
    return tally?.day === this.today() ? tally.bytes : 0;
  }

  /** An allowance for one upload by `person`, who the record names as its creator (null: no name). */
  open(person: string | null): UploadAllowance {
    const day = this.today();
    // An upload running past midnight UTC stays charged to the day it started on.
    const tally = this.tally(person ?? '', day);
    let charged = 0;
    return {
      take: (bytes) => {
        if (tally.bytes + bytes <= this.bytesPerDay) {
          tally.bytes += bytes;
          charged += bytes;
          return undefined;
        }
        const used = megabytes(tally.bytes - charged);
        const who = person
          ? `you have uploaded ${used}`
          : `uploads without a name (they share one allowance: give your name to have your own) have used ${used}`;
        return {
          status: 429,
          retryAfterSeconds: Math.max(1, Math.ceil(((day + 1) * DAY_MS - this.now()) / 1000)),
          message:
            `Daily upload limit: ${who} of ${megabytes(this.bytesPerDay)} today, and this file does not fit ` +
            'in what is left. It starts again at 00:00 UTC; until then, paste a public URL.',
        };
      },
      remaining: () => Math.max(0, this.bytesPerDay - tally.bytes),
      release: () => {
        tally.bytes = Math.max(0, tally.bytes - charged);
        charged = 0;
      },
    };
  }
}
