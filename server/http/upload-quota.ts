// How much one person may upload per day (UPLOAD_QUOTA_MB_PER_DAY). Ten 100 MB files went through in
// seconds, 1.1 GB kept for 7 days on the database's disk: nothing stopped a signed-in teammate (or a
// script with their cookie) from filling it. Every upload's bytes are charged as they stream, chunk by
// chunk, so uploads running side by side cannot pass the limit together; a refused or broken upload
// gives its bytes back. "Person" is who the team record names as the creator (server/identity/
// creator.ts creatorOf: the verified person's user id); every upload without one shares one
// allowance. The console keeps the tallies in its database, so every instance on one PostgreSQL
// counts the same bytes; the standalone emulator keeps them in memory.

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
  take(bytes: number): Promise<UploadRefusal | undefined>;
  /** Bytes the person may still upload today. */
  remaining(): Promise<number>;
  /** The upload was refused or broke off: its bytes are given back. */
  release(): Promise<void>;
  /** The upload was kept: what was set aside for it and not used is given back. */
  keep(): Promise<void>;
}

/** Bytes per person per day, where every instance sees them (server/limits/upload-tallies.ts) or in memory. */
export interface UploadTallies {
  /** Adds `bytes` to the day's total when it stays within `limit`: the new total, or undefined (nothing added). */
  add(person: string, day: number, bytes: number, limit: number): Promise<number | undefined>;
  /** Takes `bytes` back off the day's total (never below 0). */
  subtract(person: string, day: number, bytes: number): Promise<void>;
  /** The day's total. */
  used(person: string, day: number): Promise<number>;
}

/** Tallies of this process alone: the standalone emulator's, and tests'. */
export function memoryUploadTallies(): UploadTallies {
  const tallies = new Map<string, { day: number; bytes: number }>();
  const tally = (person: string, day: number) => {
    let found = tallies.get(person);
    if (!found || found.day !== day) {
      found = { day, bytes: 0 };
      tallies.set(person, found);
      // Yesterday's tallies are worth nothing: drop them now and then.
      if (tallies.size > 1000) for (const [key, value] of tallies) if (value.day !== day) tallies.delete(key);
    }
    return found;
  };
  return {
    async add(person, day, bytes, limit) {
      const found = tally(person, day);
      if (found.bytes + bytes > limit) return undefined;
      found.bytes += bytes;
      return found.bytes;
    },
    async subtract(person, day, bytes) {
      const found = tally(person, day);
      found.bytes = Math.max(0, found.bytes - bytes);
    },
    async used(person, day) {
      const found = tallies.get(person);
      return found?.day === day ? found.bytes : 0;
    },
  };
}

/**
 * An upload sets aside this much of its person's day at a time, and hands it to its chunks from
 * memory: one query per few megabytes, not per 64 KB chunk. Near the limit it sets aside just what
 * the chunk needs, so a file that fits exactly is never refused for the rounding.
 */
export const UPLOAD_SET_ASIDE_BYTES = 4 * MB;

export class UploadQuota {
  constructor(
    readonly bytesPerDay: number = DEFAULT_UPLOAD_QUOTA_MB_PER_DAY * MB,
    private readonly now: () => number = Date.now,
    private readonly tallies: UploadTallies = memoryUploadTallies(),
  ) {}

  private today(): number {
    return Math.floor(this.now() / DAY_MS);
  }

  /** Bytes `person` (null: no name) has uploaded today. */
  used(person: string | null): Promise<number> {
    return this.tallies.used(person ?? '', this.today());
  }

  /** An allowance for one upload by `person`, who the record names as its creator (null: no name). */
  open(person: string | null): UploadAllowance {
    // An upload running past midnight UTC stays charged to the day it started on.
    const day = this.today();
    const who = person ?? '';
    const { tallies, bytesPerDay } = this;
    /** Bytes set aside for this upload in the day's total, and how many of them its chunks used. */
    let setAside = 0;
    let used = 0;
    const giveBack = async (bytes: number) => {
      setAside -= bytes;
      if (bytes > 0) await tallies.subtract(who, day, bytes);
    };
    return {
      take: async (bytes) => {
        const need = bytes - (setAside - used);
        if (need > 0) {
          const more = Math.max(need, UPLOAD_SET_ASIDE_BYTES);
          let added = await tallies.add(who, day, more, bytesPerDay);
          if (added !== undefined) setAside += more;
          else if (more > need && (added = await tallies.add(who, day, need, bytesPerDay)) !== undefined)
            setAside += need;
          else return this.refusal(person, day, (await tallies.used(who, day)) - setAside);
        }
        used += bytes;
        return undefined;
      },
      remaining: async () => Math.max(0, bytesPerDay - (await tallies.used(who, day)) + (setAside - used)),
      release: async () => {
        used = 0;
        await giveBack(setAside);
      },
      keep: () => giveBack(setAside - used),
    };
  }

  /** The answer to an upload that does not fit in what `person` has left of `day`. */
  private refusal(person: string | null, day: number, usedBefore: number): UploadRefusal {
    const usedText = megabytes(Math.max(0, usedBefore));
    const who = person
      ? `you have uploaded ${usedText}`
      : `uploads without a name (they share one allowance: give your name to have your own) have used ${usedText}`;
    return {
      status: 429,
      retryAfterSeconds: Math.max(1, Math.ceil(((day + 1) * DAY_MS - this.now()) / 1000)),
      message:
        `Daily upload limit: ${who} of ${megabytes(this.bytesPerDay)} today, and this file does not fit ` +
        'in what is left. It starts again at 00:00 UTC; until then, paste a public URL.',
    };
  }
}
