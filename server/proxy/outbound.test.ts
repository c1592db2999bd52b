// The SSRF guard, attacked for real: literal private addresses, names that resolve to loopback,
// redirects into the internal network, and the one generic error for all of them.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BlockedTargetError,
  createGuardedFetch,
  isPublicAddress,
  MAX_REDIRECTS,
  publicOnlyLookup,
} from './outbound';

// DNS rebinding: `rebind.test` answers a public address the first time it is asked and loopback
// every time after, as an attacker's name server with a zero TTL would. Other names resolve as usual.
const dnsAnswers = vi.hoisted(() => ({ rebindLookups: 0, families: [] as unknown[] }));
/** Names whose answers the tests fix: a public and a private address, none, or a failure. */
const FIXED_ANSWERS: Record<string, { address: string; family: number }[] | Error> = {
  'mixed.test': [
    { address: '8.8.8.8', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'public.test': [
    { address: '2606:4700:4700::1111', family: 6 },
    { address: '8.8.8.8', family: 4 },
  ],
  'empty.test': [],
  'fails.test': new Error('ENOTFOUND'),
};
vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  const lookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const fixed = FIXED_ANSWERS[hostname];
    if (fixed) {
      dnsAnswers.families.push((options as { family?: unknown }).family);
      return fixed instanceof Error ? callback(fixed) : callback(null, fixed);
    }
    if (hostname !== 'rebind.test') return dns.lookup(hostname, options as never, callback as never);
    const address = dnsAnswers.rebindLookups++ === 0 ? '8.8.8.8' : '127.0.0.1';
    callback(null, [{ address, family: 4 }]);
  }) as typeof dns.lookup;
  return { ...dns, default: { ...dns, lookup }, lookup };
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.8',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('createGuardedFetch', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits++;
      response.end('internal secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses literal private, loopback and link-local targets before any connection', async () => {
    const transport = vi.fn<(url: URL) => Promise<Response>>();
    const guarded = createGuardedFetch({ transport });
    for (const url of [
      `http://127.0.0.1:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
      'http://10.1.2.3/',
      'http://0.0.0.0/',
      'ftp://example.com/x',
      'http://user:pw@example.com/',
      'http://user@example.com/',
      'http://:pw@example.com/',
      'file:///etc/passwd',
      'http://[fe80::1]/',
    ]) {
      await expect(guarded(url), url).rejects.toBeInstanceOf(BlockedTargetError);
    }
    expect(transport).not.toHaveBeenCalled();
  });

  it('refuses a name that resolves to loopback, at connect time (no request reaches it)', async () => {
    const before = hits;
    await expect(createGuardedFetch()(`http://localhost:${port}/`)).rejects.toBeInstanceOf(
      BlockedTargetError,
    );
    expect(hits).toBe(before);
  });

  it('connects to the very address it judged: a name that changes its answer cannot rebind to loopback', async () => {
    const before = hits;
    dnsAnswers.rebindLookups = 0;
    // Watch the socket undici opens: record the address it is about to connect to, then stop it
    // there, so no packet leaves for the public address.
    const connectingTo: string[] = [];
    const onSocket = ({ socket }: { socket: Socket }) => {
      socket.once('lookup', (_error: unknown, address: string) => {
        connectingTo.push(address);
        socket.destroy(new Error('stopped by the test before connecting'));
      });
      socket.once('connectionAttempt', (address: string) => {
        connectingTo.push(`attempt ${address}`);
        socket.destroy(new Error('stopped by the test before connecting'));
      });
    };
    subscribe('net.client.socket', onSocket as never);
    try {
      await expect(
        createGuardedFetch()(`http://rebind.test:${port}/`, { signal: AbortSignal.timeout(2000) }),
      ).rejects.toThrow();
    } finally {
      unsubscribe('net.client.socket', onSocket as never);
    }
    // One lookup, judged public, and the socket is given that same address; a second lookup (check,
    // then connect) would have been answered 127.0.0.1 and reached the internal server.
    expect(dnsAnswers.rebindLookups).toBe(1);
    expect(connectingTo).toEqual(['8.8.8.8']);
    expect(hits).toBe(before);
  });

  it('judges every redirect again, and stops after a few', async () => {
    const redirect = (location: string, status = 302) =>
      new Response(null, { status, headers: { location } });
    const toMetadata = createGuardedFetch({
      transport: async (url) =>
        url.hostname === 'public.example' ? redirect('http://169.254.169.254/latest/') : new Response('leak'),
    });
    await expect(toMetadata('http://public.example/a.png')).rejects.toBeInstanceOf(BlockedTargetError);

    const seen: string[] = [];
    const fine = createGuardedFetch({
      transport: async (url, init) => {
        seen.push(`${init.method ?? 'GET'} ${url.href}`);
        return url.pathname === '/start' ? redirect('/end', 303) : new Response('ok');
      },
    });
    expect(await (await fine('http://public.example/start', { method: 'POST', body: '{}' })).text()).toBe(
      'ok',
    );
    expect(seen).toEqual(['POST http://public.example/start', 'GET http://public.example/end']);

    let loops = 0;
    const endless = createGuardedFetch({
      transport: async () => {
        loops++;
        return redirect('http://public.example/again');
      },
    });
    await expect(endless('http://public.example/')).rejects.toBeInstanceOf(BlockedTargetError);
    expect(loops).toBe(MAX_REDIRECTS + 1);
  });

  it('follows a redirect only from a 3xx with a Location, as browsers change the method', async () => {
    const seen: string[] = [];
    const answering = (first: Response) =>
      createGuardedFetch({
        transport: async (url, init) => {
          seen.push(
            `${init.method ?? 'GET'} ${url.pathname} ${init.body === undefined ? 'no body' : 'body'}`,
          );
          return url.pathname === '/start' ? first : new Response('end');
        },
      });
    const post = { method: 'POST', body: '{}' };
    const moved = (status: number) => new Response(null, { status, headers: { location: '/end' } });
    for (const [first, init, expected] of [
      [moved(301), post, ['POST /start body', 'GET /end no body']],
      [moved(302), post, ['POST /start body', 'GET /end no body']],
      [moved(307), post, ['POST /start body', 'POST /end body']],
      [moved(308), post, ['POST /start body', 'POST /end body']],
      [moved(301), { method: 'PUT', body: '{}' }, ['PUT /start body', 'PUT /end body']],
      [moved(300), {}, ['GET /start no body', 'GET /end no body']],
      [moved(399), {}, ['GET /start no body', 'GET /end no body']],
    ] as const) {
      seen.length = 0;
      expect(await (await answering(first)('http://public.example/start', init)).text()).toBe('end');
      expect(seen).toEqual(expected);
    }
    // Not a redirect: the answer itself, Location or not.
    for (const status of [299, 400]) {
      const answer = await answering(new Response('here', { status, headers: { location: '/end' } }))(
        'http://public.example/start',
      );
      expect([answer.status, await answer.text()]).toEqual([status, 'here']);
    }
    const noLocation = await answering(new Response('no location', { status: 302 }))(
      'http://public.example/start',
    );
    expect([noLocation.status, await noLocation.text()]).toEqual([302, 'no location']);
  });

  it('fetches https, and keeps the rest of the request when a redirect turns it into a GET', async () => {
    const hops: RequestInit[] = [];
    const guarded = createGuardedFetch({
      transport: async (url, init) => {
        hops.push(init);
        return url.pathname === '/start'
          ? new Response(null, { status: 303, headers: { location: '/end' } })
          : new Response('ok');
      },
    });
    const init = { method: 'POST', body: '{}', headers: { 'x-trace': '1' } };
    expect(await (await guarded('https://public.example/start', init)).text()).toBe('ok');
    expect(hops[1]).toEqual({
      headers: { 'x-trace': '1' },
      redirect: 'manual',
      method: 'GET',
      body: undefined,
    });
  });

  it('takes a Request as the address and passes its init on', async () => {
    const seen: string[] = [];
    const guarded = createGuardedFetch({
      transport: async (url, init) => {
        seen.push(`${init.method} ${url.href} ${init.redirect}`);
        return new Response('ok');
      },
    });
    await guarded(new Request('http://public.example/from-request'), { method: 'HEAD' });
    expect(seen).toEqual(['HEAD http://public.example/from-request manual']);
  });

  it('passes an abort or timeout on as itself, and reads a blocked cause as blocked', async () => {
    for (const name of ['AbortError', 'TimeoutError']) {
      const stopped = createGuardedFetch({
        transport: () => Promise.reject(new DOMException('stopped', name)),
      });
      await expect(stopped('http://public.example/')).rejects.toMatchObject({ name });
    }
    const blockedInside = createGuardedFetch({
      transport: () => Promise.reject(new TypeError('fetch failed', { cause: new BlockedTargetError() })),
    });
    await expect(blockedInside('http://public.example/')).rejects.toBeInstanceOf(BlockedTargetError);
    const blocked = createGuardedFetch({ transport: () => Promise.reject(new BlockedTargetError()) });
    await expect(blocked('http://public.example/')).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it('answers the console’s own address in-process', async () => {
    const guarded = createGuardedFetch({
      local: (url) => (url.pathname.startsWith('/emulator/') ? new Response('own media') : undefined),
      transport: async () => new Response('network'),
    });
    expect(await (await guarded('http://127.0.0.1:5173/emulator/samples/reference.png')).text()).toBe(
      'own media',
    );
    await expect(guarded('http://127.0.0.1:5173/other')).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it('names its refusal and says nothing of why', () => {
    expect(new BlockedTargetError()).toMatchObject({
      name: 'BlockedTargetError',
      message: 'The address cannot be fetched',
    });
  });

  it('says the same thing for a refused address and a failed connection', async () => {
    const refused = await createGuardedFetch()(`http://127.0.0.1:${port}/`).catch((e: Error) => e.message);
    const failed = await createGuardedFetch({
      transport: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    })('http://public.example/').catch((e: Error) => e.message);
    expect(refused).toBe(failed);
  });
});

describe('publicOnlyLookup', () => {
  const lookUp = (hostname: string, options: Record<string, unknown>) =>
    new Promise<unknown[]>((resolve) =>
      publicOnlyLookup(hostname, options as never, (...answer: unknown[]) => resolve(answer)),
    );

  it('gives every answer, or the first, when all of them are public', async () => {
    expect(await lookUp('public.test', { all: true })).toEqual([
      null,
      [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '8.8.8.8', family: 4 },
      ],
    ]);
    expect(await lookUp('public.test', {})).toEqual([null, '2606:4700:4700::1111', 6]);
  });

  it.each(['mixed.test', 'empty.test', 'fails.test'])(
    'refuses %s (one private answer, none, a failure)',
    async (name) => {
      const [error, addresses] = await lookUp(name, { all: true });
      expect(error).toBeInstanceOf(BlockedTargetError);
      expect(addresses).toEqual([]);
    },
  );

  it('asks for the family it was given, named or numbered', async () => {
    dnsAnswers.families = [];
    for (const family of ['IPv4', 'IPv6', 4, 6, undefined]) await lookUp('public.test', { family });
    expect(dnsAnswers.families).toEqual([4, 6, 4, 6, 0]);
  });
});
