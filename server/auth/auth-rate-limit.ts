// A small brake on password guessing: after a few failures from one client within a window, the
// sign-in form answers 429 until the oldest failure leaves the window; and after many failures from
// everyone together, for everyone, so that clients with many addresses (a /48 holds 65,536 /64s,
// each a fresh bucket) are braked too. In memory on purpose: a restart clearing it is fine for a
// brake, and it keeps DATA_DIR the only state.
/** Failed sign-ins from all clients together within the window before everyone waits (LOGIN_FAILURES_TOTAL). */
export const DEFAULT_LOGIN_FAILURES_TOTAL = 100;

export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();
  /** Every failure within the window, whoever made it: at most `maxTotal` (the brake stops counting). */
  private everyone: number[] = [];
  private warned = false;

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxTotal: number = DEFAULT_LOGIN_FAILURES_TOTAL,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  /** Seconds until `times` holds fewer than `max` failures within the window; 0 when it already does. */
  private wait(times: number[], max: number): number {
    if (times.length < max) return 0;
    const oldest = times[times.length - max] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  /** 0 when the client may try now. */
  retryAfterSeconds(key: string): number {
    const cutoff = this.now() - this.windowMs;
    this.everyone = this.everyone.filter((t) => t > cutoff);
    const overall = this.wait(this.everyone, this.maxTotal);
    if (overall > 0 && !this.warned) {
      // Said once per episode: the operator should know sign-in is paused for everyone.
      this.warned = true;
      console.warn(
        `[sign-in] ${this.everyone.length} failed sign-ins within ${Math.round(this.windowMs / 60_000)} minutes from all clients together: sign-in answers 429 to everyone for ${overall} s`,
      );
    } else if (overall === 0) this.warned = false;
    return Math.max(this.wait(this.recent(key), this.maxFailures), overall);
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.now());
    this.failures.set(key, times);
    this.everyone.push(this.now());
    // Bound memory when many addresses fail once (the overall brake holds them anyway).
    if (this.failures.size > 10_000) {
      const first = this.failures.keys().next().value;
      if (first !== undefined) this.failures.delete(first);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
