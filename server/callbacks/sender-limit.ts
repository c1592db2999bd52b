// A per-sender brake for the callback inbox: a token bucket per client network (IPv4 address or
// IPv6 /64). The service delivers callbacks as tasks finish, in bursts at most; a sender that keeps
// going far beyond that is flooding the log, and gets 429 with Retry-After (a real service retries).
export interface SenderLimitOptions {
  /** Sustained callbacks per second per sender; 0 turns the brake off. */
  perSecond: number;
  /** How many may arrive at once before the brake applies. */
  burst: number;
  now?: () => number;
}

export interface SenderLimit {
  /** 0 when the callback may be taken now, else the seconds to wait. */
  take(sender: string): number;
}

export function createSenderLimit({ perSecond, burst, now = Date.now }: SenderLimitOptions): SenderLimit {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(sender) {
      if (perSecond <= 0) return 0;
      const t = now();
      const bucket = buckets.get(sender) ?? { tokens: burst, at: t };
      bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
      bucket.at = t;
      buckets.set(sender, bucket);
      // Full buckets carry no information: drop them so the map holds only active senders.
      if (buckets.size > 10_000)
        for (const [key, value] of buckets) if (value.tokens >= burst - 1) buckets.delete(key);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / perSecond);
    },
  };
}
