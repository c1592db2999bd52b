import { Hono } from 'hono';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginRateLimiter } from './auth-rate-limit';
import { addressKey, clientAddress, clientKey } from '../http/client-address';
import { parseTrustedProxies } from '../http/trusted-proxies';
import { resetTestDatabase, testDatabase } from '../testing/database';

/** The client address the server works out for a request from `peer` with `forwarded`. */
async function clientOf(peer: string | undefined, forwarded?: string, trustedProxies?: string) {
  const app = new Hono();
  const trusted = parseTrustedProxies(trustedProxies).trusted;
  app.get('/', (c) => c.json({ address: clientAddress(c, trusted) ?? null, key: clientKey(c, trusted) }));
  const env = peer ? { incoming: { socket: { remoteAddress: peer } } } : undefined;
  const res = await app.request(
    '/',
    { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } },
    env,
  );
  return ((await res.json()) as { address: string | null }).address;
}

describe('addressKey (who the sign-in brake counts)', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['not-an-ip', 'not-an-ip'],
  ])('%s -> %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe('clientAddress (who the client is)', () => {
  it('is the peer when the peer is not a trusted proxy, whatever X-Forwarded-For says', async () => {
    expect(await clientOf('203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    expect(await clientOf('::ffff:203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('is the last X-Forwarded-For entry behind a loopback proxy, when it is an IP address', async () => {
    expect(await clientOf('127.0.0.1', '203.0.113.9, 198.51.100.1')).toBe('198.51.100.1');
    expect(await clientOf('::1', '2001:db8::1')).toBe('2001:db8::1');
    expect(await clientOf('127.0.0.1')).toBe('127.0.0.1');
    for (const madeUp of [
      'garbage-1',
      'unknown',
      '1',
      '0x7f000001',
      '010.0.0.1',
      '198.51.100.1:80',
      '',
      ' , ',
    ])
      expect(await clientOf('127.0.0.1', madeUp), madeUp).toBe('127.0.0.1');
  });

  it('walks back over trusted proxies to the first address that is not one', async () => {
    const proxies = '10.0.0.0/24';
    expect(await clientOf('10.0.0.5', 'spoofed, 198.51.100.7, 10.0.0.9', proxies)).toBe('198.51.100.7');
    // A made-up entry stops the walk at the last real address.
    expect(await clientOf('10.0.0.5', '198.51.100.7, garbage, 10.0.0.9', proxies)).toBe('10.0.0.9');
    // With TRUSTED_PROXIES set, loopback is a client like any other; with none, nobody is a proxy.
    expect(await clientOf('127.0.0.1', '198.51.100.7', proxies)).toBe('127.0.0.1');
    expect(await clientOf('127.0.0.1', '198.51.100.7', 'none')).toBe('127.0.0.1');
  });

  it('is unknown without a socket (a request made inside the process), forwarded or not', async () => {
    expect(await clientOf(undefined, '198.51.100.1')).toBeNull();
  });
});

describe('LoginRateLimiter', () => {
  beforeEach(async () => {
    await resetTestDatabase();
  });
  const limiter = (maxFailures: number, windowMs: number, now: () => number, maxTotal: number) =>
    new LoginRateLimiter(testDatabase(), maxFailures, windowMs, now, maxTotal);

  it('brakes one client at its limit, not one failure before, others not', async () => {
    const brake = limiter(2, 60_000, () => 1_000, 1_000);
    await brake.fail('a');
    expect(await brake.retryAfterSeconds('a')).toBe(0);
    await brake.fail('a');
    expect(await brake.retryAfterSeconds('a')).toBe(60);
    expect(await brake.retryAfterSeconds('b')).toBe(0);
  });

  it('lets the client go once its oldest failure leaves the window, not a millisecond before', async () => {
    let now = 0;
    const brake = limiter(2, 60_000, () => now, 1_000);
    await brake.fail('a');
    now = 10_000;
    await brake.fail('a');
    now = 59_999;
    expect(await brake.retryAfterSeconds('a')).toBe(1);
    now = 60_000;
    expect(await brake.retryAfterSeconds('a')).toBe(0);
  });

  it('forgets a client that signed in, which still counts for everyone', async () => {
    const brake = limiter(2, 60_000, () => 1_000, 3);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await brake.fail('a');
    await brake.fail('a');
    await brake.reset('a');
    expect(await brake.retryAfterSeconds('a')).toBe(0);
    await brake.fail('b');
    expect(await brake.retryAfterSeconds('fresh')).toBe(60);
    vi.restoreAllMocks();
  });

  it('brakes everyone after the overall limit within the window, and lets them go when it passes', async () => {
    let now = 0;
    const brake = limiter(5, 600_000, () => now, 3);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await brake.fail('a');
    now = 1_000;
    await brake.fail('b');
    expect(await brake.retryAfterSeconds('fresh')).toBe(0); // 2 of 3
    await brake.fail('c');
    expect(await brake.retryAfterSeconds('fresh')).toBe(599); // 3 of 3: until the first (at 0) leaves the window
    now = 600_000;
    expect(await brake.retryAfterSeconds('fresh')).toBe(0); // the first is out: 2 in the window
    vi.restoreAllMocks();
  });

  it('deletes the failures that left the window as new ones are made', async () => {
    let now = 0;
    const brake = limiter(5, 60_000, () => now, 100);
    for (const client of ['a', 'b', 'c']) await brake.fail(client);
    now = 60_000;
    await brake.fail('d');
    const { db } = await testDatabase();
    const rows = await db.selectFrom('sign_in_failures').select('client').execute();
    expect(rows.map((row) => row.client)).toEqual(['d']);
  });
});

describe("the overall brake's warning", () => {
  beforeEach(async () => {
    await resetTestDatabase();
  });

  it('tells the operator once per episode, with the failures in the window and the wait, and again in the next', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const limiter = new LoginRateLimiter(testDatabase(), 5, 10 * 60_000, () => clock.now, 2);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await limiter.fail('a');
    clock.now += 1000;
    expect(await limiter.retryAfterSeconds('c')).toBe(0);
    await limiter.fail('b');
    for (let ask = 0; ask < 3; ask++) expect(await limiter.retryAfterSeconds('c')).toBe(599);
    expect(warn.mock.calls).toEqual([
      [
        '[sign-in] 2 failed sign-ins within 10 minutes from all clients together: sign-in answers 429 to everyone for 599 s',
      ],
    ]);
    clock.now += 10 * 60_000;
    expect(await limiter.retryAfterSeconds('c')).toBe(0);
    await limiter.fail('a');
    await limiter.fail('b');
    expect(await limiter.retryAfterSeconds('c')).toBe(600);
    expect(warn).toHaveBeenCalledTimes(2);
    // A limiter whose first look finds everyone braked (a restart during an episode) says so too.
    const restarted = new LoginRateLimiter(testDatabase(), 5, 10 * 60_000, () => clock.now, 2);
    expect(await restarted.retryAfterSeconds('c')).toBe(600);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});
