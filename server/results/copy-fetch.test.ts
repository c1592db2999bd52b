// fetchIntoStore on its own: a fetch stub plays the service and an in-memory store keeps what it is
// given, so each refusal (the link, the guard, the answer's status, the size cap declared or
// streamed), the stall timer and what is kept (key, size, SHA-256, the type sniffed from exactly
// the first SNIFF_BYTES) show without a database or a socket.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlockedTargetError } from '../proxy/outbound';
import { resultCopyRow as rowOf } from '../testing/result-copy-row';
import { CopyError, fetchIntoStore, type FetchLimits } from './copy-fetch';
import { SNIFF_BYTES } from './sniff';
import { keyFor, type ResultStore } from './store';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A store that reads whatever it is given to the end; `beforeEnd` runs once the bytes are read. */
function memoryStore(beforeEnd?: () => void) {
  const kept = new Map<string, Buffer>();
  let received = 0;
  const store: ResultStore = {
    kind: 'memory',
    async put(key: string, body: Readable, contentType: string) {
      // The type is sniffed once the bytes are in: the store is told nothing it could serve.
      expect(contentType).toBe('application/octet-stream');
      const chunks: Buffer[] = [];
      for await (const chunk of body) {
        chunks.push(chunk as Buffer);
        received += (chunk as Buffer).length;
      }
      beforeEnd?.();
      kept.set(key, Buffer.concat(chunks));
    },
    get: () => Promise.reject(new Error('not used')),
    delete: () => Promise.reject(new Error('not used')),
  };
  return { store: Promise.resolve(store), kept, received: () => received };
}

/** A web body sending `chunks` one by one. */
const bodyOf = (...chunks: Buffer[]) =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });

const answering = (response: () => Response) => vi.fn(async () => response());
const limitsOf = (fetch: FetchLimits['fetch'], overrides: Partial<FetchLimits> = {}): FetchLimits => ({
  fetch,
  maxBytes: 1000,
  idleMs: 60_000,
  ...overrides,
});

async function copyError(promise: Promise<unknown>): Promise<CopyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CopyError);
  return error as CopyError;
}

/** Waits, turn by turn of the event loop (not by a timer: those may be fake), until `check` holds. */
async function until(check: () => boolean) {
  for (let turn = 0; turn < 1000 && !check(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('fetchIntoStore: what is kept', () => {
  it('streams the file into the store under its key, with its size, SHA-256 and sniffed type', async () => {
    const fetch = answering(() => new Response(bodyOf(PNG.subarray(0, 5), PNG.subarray(5))));
    const { store, kept } = memoryStore();
    const row = rowOf({ role: 'thumbnail', idx: 2 });
    const file = await fetchIntoStore(row, new AbortController(), store, limitsOf(fetch));
    const key = keyFor('task-1', 'thumbnail', 2);
    expect(file).toEqual({ key, size: PNG.length, sha256: sha256(PNG), contentType: 'image/png' });
    expect(kept.get(key)).toEqual(PNG);
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.href).toBe('https://files.service.example/out.png');
    expect(init.headers).toEqual({ accept: '*/*' });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('sniffs exactly the first SNIFF_BYTES, across chunks: a NUL just past them is not seen, one at the last is', async () => {
    const caption = (nulAt: number, split: number) => {
      const bytes = Buffer.alloc(SNIFF_BYTES + 40, 'a');
      bytes.write('WEBVTT\n', 0);
      bytes[nulAt] = 0;
      return fetchIntoStore(
        rowOf({ role: 'caption' }),
        new AbortController(),
        memoryStore().store,
        limitsOf(answering(() => new Response(bodyOf(bytes.subarray(0, split), bytes.subarray(split))))),
      );
    };
    expect((await caption(SNIFF_BYTES, 300)).contentType).toBe('text/vtt; charset=utf-8');
    expect((await caption(SNIFF_BYTES - 1, 300)).contentType).toBe('application/octet-stream');
    // The whole head in the first chunk, the NUL in the second.
    expect((await caption(SNIFF_BYTES, SNIFF_BYTES)).contentType).toBe('text/vtt; charset=utf-8');
    expect((await caption(SNIFF_BYTES + 1, SNIFF_BYTES + 1)).contentType).toBe('text/vtt; charset=utf-8');
  });

  it('keeps a file of exactly the cap, declared or not, and refuses one byte more as final', async () => {
    const exact = Buffer.alloc(1000, 1);
    const declared = (bytes: Buffer) => () =>
      new Response(bodyOf(bytes), { headers: { 'content-length': String(bytes.length) } });
    const copy = (response: () => Response) =>
      fetchIntoStore(rowOf(), new AbortController(), memoryStore().store, limitsOf(answering(response)));
    expect((await copy(declared(exact))).size).toBe(1000);
    expect((await copy(() => new Response(bodyOf(exact)))).size).toBe(1000);
    const over = Buffer.alloc(1001, 1);
    const declaredOver = await copyError(copy(declared(over)));
    expect([declaredOver.message, declaredOver.final]).toEqual(['larger than the 1000-byte limit', true]);
    const streamedOver = await copyError(copy(() => new Response(bodyOf(exact, Buffer.from([1])))));
    expect([streamedOver.message, streamedOver.final]).toEqual(['larger than the 1000-byte limit', true]);
  });
});

describe('fetchIntoStore: refusals', () => {
  it('refuses an unknown role and a link that is not a URL, for good, without fetching', async () => {
    const fetch = answering(() => new Response(bodyOf(PNG)));
    const unknownRole = await copyError(
      fetchIntoStore(rowOf({ role: 'audio' }), new AbortController(), memoryStore().store, limitsOf(fetch)),
    );
    expect([unknownRole.message, unknownRole.final]).toEqual(['unknown file role audio', true]);
    const notUrl = await copyError(
      fetchIntoStore(
        rowOf({ source_url: 'not a url' }),
        new AbortController(),
        memoryStore().store,
        limitsOf(fetch),
      ),
    );
    expect([notUrl.message, notUrl.final]).toEqual(['the result link is not a URL', true]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('gives up on a literal private address the guard refused, and retries anything else that fails to fetch', async () => {
    const blocked = vi.fn(async () => {
      throw new BlockedTargetError();
    });
    const outcome = async (url: string, fetch: FetchLimits['fetch'] = blocked) => {
      const error = await copyError(
        fetchIntoStore(
          rowOf({ source_url: url }),
          new AbortController(),
          memoryStore().store,
          limitsOf(fetch),
        ),
      );
      return [error.message, error.final];
    };
    const refused = ['refused by the outbound guard: not a public address', true];
    for (const url of [
      'http://localhost/a',
      'http://LOCALHOST/a',
      'http://media.localhost/a',
      'http://127.0.0.1/a',
      'http://169.254.169.254/latest',
      'http://10.0.0.8/a',
      'http://[::1]/a',
    ])
      expect(await outcome(url), url).toEqual(refused);
    // A name (its addresses may change) or a public literal the guard refused: tried again later.
    const retried = ['the file could not be fetched', false];
    expect(await outcome('http://files.example/a')).toEqual(retried);
    expect(await outcome('http://notlocalhost/a')).toEqual(retried);
    expect(await outcome('http://localhost.example/a')).toEqual(retried);
    expect(await outcome('http://8.8.8.8/a')).toEqual(retried);
    const offline = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    expect(await outcome('http://127.0.0.1/a', offline)).toEqual(retried);
  });

  it('retries a 5xx, a 408 and a 429, gives up on any other failed answer, and cancels its body', async () => {
    const outcome = async (status: number) => {
      const cancel = vi.fn();
      const body = new ReadableStream({ cancel });
      const error = await copyError(
        fetchIntoStore(
          rowOf(),
          new AbortController(),
          memoryStore().store,
          limitsOf(answering(() => new Response(body, { status }))),
        ),
      );
      expect(cancel, String(status)).toHaveBeenCalled();
      return [error.message, error.final];
    };
    expect(await outcome(500)).toEqual(['the service answered HTTP 500', false]);
    expect(await outcome(503)).toEqual(['the service answered HTTP 503', false]);
    expect(await outcome(408)).toEqual(['the service answered HTTP 408', false]);
    expect(await outcome(429)).toEqual(['the service answered HTTP 429', false]);
    expect(await outcome(499)).toEqual(['the service answered HTTP 499', true]);
    expect(await outcome(404)).toEqual(['the service answered HTTP 404', true]);
    expect(await outcome(407)).toEqual(['the service answered HTTP 407', true]);
    expect(await outcome(409)).toEqual(['the service answered HTTP 409', true]);
    expect(await outcome(428)).toEqual(['the service answered HTTP 428', true]);
    expect(await outcome(430)).toEqual(['the service answered HTTP 430', true]);
  });

  it('gives up on a success with no body', async () => {
    const error = await copyError(
      fetchIntoStore(
        rowOf(),
        new AbortController(),
        memoryStore().store,
        limitsOf(answering(() => new Response(null, { status: 200 }))),
      ),
    );
    expect([error.message, error.final]).toEqual(['the service answered HTTP 200', true]);
  });

  it('cancels a body declared past the cap without reading it', async () => {
    const cancel = vi.fn();
    const body = new ReadableStream({ cancel });
    await copyError(
      fetchIntoStore(
        rowOf(),
        new AbortController(),
        memoryStore().store,
        limitsOf(answering(() => new Response(body, { headers: { 'content-length': '1001' } }))),
      ),
    );
    expect(cancel).toHaveBeenCalled();
  });
});

describe('fetchIntoStore: cut short', () => {
  it('retries a body that breaks mid-way, naming why', async () => {
    let sent = false;
    const breaking = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error('socket hang up'));
        sent = true;
        controller.enqueue(new Uint8Array(PNG));
      },
    });
    const error = await copyError(
      fetchIntoStore(
        rowOf(),
        new AbortController(),
        memoryStore().store,
        limitsOf(answering(() => new Response(breaking))),
      ),
    );
    expect([error.message, error.final]).toEqual(['the copy was cut short (socket hang up)', false]);
  });

  it('abandons a transfer that receives nothing for idleMs, to be retried', async () => {
    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const abort = new AbortController();
    const error = await copyError(
      fetchIntoStore(
        rowOf(),
        abort,
        memoryStore().store,
        limitsOf(
          answering(() => new Response(silent)),
          { idleMs: 5 },
        ),
      ),
    );
    expect([error.message, error.final]).toEqual(['the transfer stalled', false]);
    expect(abort.signal.reason).toBe(error);
  });

  it('restarts the stall timer on every chunk, and stops it once the file is kept', async () => {
    // Only the timers are fake: the streams' own scheduling (microtasks, setImmediate) runs as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const abort = new AbortController();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (opened) => void (controller = opened) });
    const { store, received } = memoryStore();
    const copying = fetchIntoStore(
      rowOf(),
      abort,
      store,
      limitsOf(
        answering(() => new Response(body)),
        { idleMs: 100 },
      ),
    );
    await until(() => vi.getTimerCount() === 1);
    vi.advanceTimersByTime(99);
    controller.enqueue(new Uint8Array(PNG.subarray(0, 6)));
    await until(() => received() === 6);
    // 198 ms since the start, 99 since the chunk: not stalled.
    vi.advanceTimersByTime(99);
    expect(abort.signal.aborted).toBe(false);
    controller.enqueue(new Uint8Array(PNG.subarray(6)));
    controller.close();
    expect((await copying).size).toBe(PNG.length);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(abort.signal.aborted).toBe(false);
  });

  it('ends with the abort’s reason when the copy is abandoned while the store finishes', async () => {
    const abort = new AbortController();
    const reason = new CopyError('the console is stopping', false);
    const { store } = memoryStore(() => abort.abort(reason));
    await expect(
      fetchIntoStore(rowOf(), abort, store, limitsOf(answering(() => new Response(bodyOf(PNG))))),
    ).rejects.toBe(reason);
  });

  it('ends with the abort’s reason when the fetch itself is abandoned', async () => {
    const abort = new AbortController();
    const reason = new CopyError('the console is stopping', false);
    const fetch = vi.fn(async () => {
      abort.abort(reason);
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(fetchIntoStore(rowOf(), abort, memoryStore().store, limitsOf(fetch))).rejects.toBe(reason);
  });
});
