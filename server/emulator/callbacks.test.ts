import { describe, expect, it, vi } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { sendCallback, type CallbackSenderOptions } from './callbacks';
import { Scheduler } from './scheduler';
import { cleanupAfterEach, localServer, waitFor, type LocalServer } from '../testing/emulator';

const onCleanup = cleanupAfterEach();

const BODY: CallbackBody = {
  code: 0,
  msg: 'ok',
  task_type: 'image_generate',
  data: { task_id: 'i2is-1', status: 'SUCCEEDED', image_url: 'http://e.test/i.png', error_message: '' },
};

async function server(statuses: number[] = []): Promise<LocalServer> {
  const answers = [...statuses];
  const s = await localServer((_req, res) => {
    res.writeHead(answers.shift() ?? 200).end();
  });
  onCleanup(() => s.close());
  return s;
}

function sender(overrides: Partial<CallbackSenderOptions> = {}): CallbackSenderOptions & { logs: string[] } {
  const scheduler = new Scheduler();
  onCleanup(() => scheduler.close());
  const logs: string[] = [];
  return {
    fetch: globalThis.fetch,
    scheduler,
    timeoutMs: 1_000,
    retryDelayMs: 5,
    log: (m) => logs.push(m),
    logs,
    ...overrides,
  };
}

describe('sendCallback', () => {
  it('POSTs the JSON body once when the receiver answers 2xx', async () => {
    const s = await server([204]);
    sendCallback(`${s.url}/hook`, BODY, sender());
    await waitFor(() => s.requests.length === 1);
    expect(s.requests[0]).toMatchObject({ method: 'POST', path: '/hook' });
    expect(JSON.parse(s.requests[0]!.body)).toEqual(BODY);
  });

  it('retries on non-2xx until it succeeds', async () => {
    const s = await server([500, 503, 200]);
    const options = sender();
    const released = vi.spyOn(options.scheduler, 'release');
    sendCallback(`${s.url}/hook`, BODY, options);
    // The third POST has had its answer (its abort handle is released): after a 2xx nothing more
    // is scheduled, while the two failures each scheduled a retry.
    await waitFor(() => released.mock.calls.length === 3);
    expect(options.scheduler.pending).toBe(0);
    expect(s.requests).toHaveLength(3);
  });

  it('tries at most 4 times in all (3 retries), then logs without the query string', async () => {
    const s = await server([500, 500, 500, 500, 500, 500]);
    const options = sender();
    sendCallback(`${s.url}/hook?secret=abc`, BODY, options);
    await waitFor(() => options.logs.length === 1);
    expect(s.requests).toHaveLength(4);
    expect(options.logs[0]).toContain('gave up after 4 tries: HTTP 500');
    expect(options.logs[0]).not.toContain('secret');
  });

  it('retries on network errors with a doubling delay (base, x2, x4)', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const options = sender({ fetch, retryDelayMs: 10 });
    const after = vi.spyOn(options.scheduler, 'after');
    sendCallback('http://127.0.0.1:1/hook', BODY, options);
    await waitFor(() => options.logs.length === 1);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(after.mock.calls.map(([ms]) => ms)).toEqual([10, 20, 40]);
    expect(options.logs[0]).toContain('network error: fetch failed');
  });

  it('gives each try a timeout', async () => {
    const s = await localServer(() => undefined); // never answers
    onCleanup(() => s.close());
    const options = sender({ timeoutMs: 50 });
    sendCallback(`${s.url}/hook`, BODY, options);
    await waitFor(() => options.logs.length === 1);
    expect(s.requests.length).toBe(4);
  });

  it('never calls a non-http(s) URL', async () => {
    const fetch = vi.fn(globalThis.fetch);
    for (const url of ['ftp://a.test/cb', 'javascript:alert(1)', 'file:///tmp/x', 'nope', undefined]) {
      sendCallback(url, BODY, sender({ fetch }));
    }
    // A call is made at once (the control below shows it), so none was made.
    expect(fetch).not.toHaveBeenCalled();
    const s = await server([200]);
    sendCallback(`${s.url}/hook`, BODY, sender({ fetch }));
    expect(fetch).toHaveBeenCalledTimes(1);
    await waitFor(() => s.requests.length === 1);
  });

  it('stops retrying once the scheduler is closed', async () => {
    const s = await server([500, 500, 500, 500]);
    const options = sender({ retryDelayMs: 50 });
    const released = vi.spyOn(options.scheduler, 'release');
    sendCallback(`${s.url}/hook`, BODY, options);
    await waitFor(() => s.requests.length === 1);
    options.scheduler.close();
    // Control: the same failure on an open scheduler, sent now, is retried; by the time its retry
    // is in, the closed one's (due earlier) would have been too.
    const open = await server([500, 500, 500, 500]);
    sendCallback(`${open.url}/hook`, BODY, sender({ retryDelayMs: 50 }));
    await waitFor(() => open.requests.length === 2);
    await waitFor(() => released.mock.calls.length === 1);
    expect(options.scheduler.pending).toBe(0);
    expect(s.requests).toHaveLength(1);
  });
});
