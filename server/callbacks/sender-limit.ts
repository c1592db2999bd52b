// A per-sender brake for the callback inbox: a token bucket per client network (IPv4 address or
// IPv6 /64). The service delivers callbacks as tasks finish, in bursts at most; a sender that keeps
// going far beyond that is flooding the log, and gets 429 with Retry-After (a real service retries).
interface SenderLimitOptions {
  /** Sustained callbacks per second per sender; 0 turns the brake off. */
  perSecond: number;
  /** How many may arrive at once before the brake applies. */
  burst: number;
  now?: () => number;
}

interface SenderLimit {
  /** 0 when the callback may be taken now, else the seconds to wait. */
  take(sender: string): number;
  /** Senders currently remembered (for tests and the memory bound). */
  readonly size: number;
}

/** Above this many remembered senders, quiet ones are forgotten, then the longest idle. */
export const MAX_TRACKED_SENDERS = 10_000;

export function createSenderLimit({ perSecond, burst, now = Date.now }: SenderLimitOptions): SenderLimit {
  // In order of last use (a sender is moved to the end on each callback), so the front is the longest idle.
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refilled = (bucket: { tokens: number; at: number }, t: number) =>
    Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);

  /** Forgets senders whose bucket has refilled (they carry no information), then the longest idle. */
  function prune(t: number) {
    for (const [key, bucket] of buckets) if (refilled(bucket, t) >= burst) buckets.delete(key);
    // Still too many busy senders: drop the longest idle down to 90 %, so this runs rarely.
    const keep = Math.floor(MAX_TRACKED_SENDERS * 0.9);
    for (const key of buckets.keys()) {
      if (buckets.size <= keep) break;
      buckets.delete(key);
    }
  }

  return {
    take(sender) {
      if (perSecond <= 0) return 0;
      const t = now();
      const previous = buckets.get(sender);
      const bucket = { tokens: previous ? refilled(previous, t) : burst, at: t };
      buckets.delete(sender);
      buckets.set(sender, bucket);
      if (buckets.size > MAX_TRACKED_SENDERS) prune(t);
      if (!buckets.has(sender)) buckets.set(sender, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / perSecond);
    },
    get size() {
      return buckets.size;
    },
  };
}
