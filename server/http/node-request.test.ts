// The Node request handed on unread: the browser-gone signal, and a body read only when asked for.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { browserGoneSignal, deferredBody } from './node-request';

describe('browserGoneSignal', () => {
  it('aborts when the response closes unfinished, not when it was sent whole', () => {
    const gone = new ServerResponse(new IncomingMessage(new Socket()));
    const signal = browserGoneSignal(gone);
    expect(signal.aborted).toBe(false);
    gone.emit('close');
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('The browser went away');

    const sent = new ServerResponse(new IncomingMessage(new Socket()));
    Object.defineProperty(sent, 'writableFinished', { value: true });
    const kept = browserGoneSignal(sent);
    sent.emit('close');
    expect(kept.aborted).toBe(false);
  });
});

describe('deferredBody', () => {
  const post = (body: BodyInit | null, method = 'POST') =>
    new Request('http://console.test/', { method, body, duplex: 'half' } as RequestInit);

  it('has no body for GET and HEAD, and reads a POST body only when pulled', async () => {
    expect(deferredBody(new Request('http://console.test/'))).toBeNull();
    expect(deferredBody(new Request('http://console.test/', { method: 'HEAD' }))).toBeNull();
    const request = post('the body');
    const body = deferredBody(request)!;
    // Nothing is read ahead: the original body is untouched until the copy is read.
    await new Promise(setImmediate);
    expect(request.bodyUsed).toBe(false);
    expect(await new Response(body).text()).toBe('the body');
    expect(await new Response(deferredBody(post(null))).text()).toBe('');
  });

  it('cancels the original body with the copy', async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('chunk')),
      cancel: (reason) => void (cancelled = reason),
    });
    const reader = deferredBody(post(source))!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel('browser left');
    expect(cancelled).toBe('browser left');
    // Dropped before anything was read: the original body is never touched.
    const untouched = post('never read');
    await deferredBody(untouched)!.cancel('browser left');
    expect(untouched.bodyUsed).toBe(false);
  });
});
