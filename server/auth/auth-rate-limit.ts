// A small brake on password guessing: after a few failures from one client within a window, the
// sign-in form answers 429 until the oldest failure leaves the window; and after many failures from
// everyone together, for everyone, so that clients with many addresses (a /48 holds 65,536 /64s,
// each a fresh bucket) are braked too. In memory on purpose: a restart clearing it is fine for a
// brake, and it keeps DATA_DIR the only state.
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { parseIp } from '../http/ip-address';
import { peerAddress } from '../http/request-origin';
import { LOOPBACK_PROXIES, type TrustedProxies } from '../http/trusted-proxies';

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

/**
 * The client's address. A peer that is not a trusted proxy (TRUSTED_PROXIES, loopback by default)
 * is the client, whatever it says in X-Forwarded-For. Behind trusted proxies the entries are read
 * from the right (each proxy appends the address it saw): the first that is not a trusted proxy is
 * the client. Only entries that parse as an IP address count: at the first one that does not
 * (`garbage-1`, `unknown`, a name), the walk stops at the last address it had. Undefined without a
 * socket (a request made inside the process).
 */
export function clientAddress(c: Context, trusted: TrustedProxies = LOOPBACK_PROXIES): string | undefined {
  const peer = peerAddress(c);
  if (!peer) return undefined;
  let client = parseIp(peer)?.toString() ?? peer;
  if (!trusted(peer)) return client;
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = strictIp(hops[i]!);
    if (!hop) break;
    client = hop.toString();
    if (!trusted(client)) break;
  }
  return client;
}

/** Only the ordinary spellings: `1.2.3.4` or IPv6; not `1`, `0x7f.1` or `010.0.0.1`, which ipaddr.js also reads. */
function strictIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const ordinary =
    ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));
  return ordinary ? parseIp(text) : undefined;
}

/** The key the brakes count under: the client's network (see addressKey), or 'unknown'. */
export function clientKey(c: Context, trusted: TrustedProxies = LOOPBACK_PROXIES): string {
  const address = clientAddress(c, trusted);
  return address ? addressKey(address) : 'unknown';
}

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
