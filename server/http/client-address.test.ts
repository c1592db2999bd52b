// Who the client is when the peer is not an IP address, or when there is no socket at all.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientKey } from './client-address';

const app = new Hono();
app.get('/', (c) => c.json({ address: clientAddress(c) ?? null, key: clientKey(c) }));
const ask = async (peer?: string) =>
  (await app.request('/', {}, peer ? { incoming: { socket: { remoteAddress: peer } } } : undefined)).json();

describe('clientAddress', () => {
  it('keeps a peer that is no IP address as it is, and counts a request without a socket as unknown', async () => {
    expect(await ask('local-socket')).toEqual({ address: 'local-socket', key: 'local-socket' });
    expect(await ask()).toEqual({ address: null, key: 'unknown' });
  });
});
