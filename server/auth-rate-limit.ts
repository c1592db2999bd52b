// A small brake on password guessing: after a few failures from one client within a window, the
// sign-in form answers 429 until the oldest failure leaves the window. In memory on purpose: a
// restart clearing it is fine for a brake, and it keeps DATA_DIR the only state.
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { parseIp } from './ip-address';
import { fromLoopbackPeer, peerAddress } from './request-origin';

/**
 * The client's address. Behind a reverse proxy on the same machine the peer is loopback, so the
 * last X-Forwarded-For entry (the one the proxy appended, which a client cannot forge) is used.
 */
/**
 * One key per client network: an IPv4 address, or an IPv6 /64 (one subscriber's prefix: a single
 * client can pick any of its 2^64 addresses, so counting per address would never brake it).
 */
export function addressKey(address: string): string {
  const parsed = parseIp(address);
  if (!parsed) return address;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

export function clientKey(c: Context): string {
  const peer = peerAddress(c);
  if (!peer || fromLoopbackPeer(c)) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return addressKey(forwarded);
  }
  return peer ? addressKey(peer) : 'unknown';
}

export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  /** 0 when the client may try now. */
  retryAfterSeconds(key: string): number {
    const times = this.recent(key);
    if (times.length < this.maxFailures) return 0;
    const oldest = times[times.length - this.maxFailures] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.now());
    this.failures.set(key, times);
    // Bound memory when many addresses fail once.
    if (this.failures.size > 10_000) {
      const first = this.failures.keys().next().value;
      if (first !== undefined) this.failures.delete(first);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
