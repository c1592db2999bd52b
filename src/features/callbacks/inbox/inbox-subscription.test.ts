// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '@/testing/fake-event-source';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/parse-callback';
import { readPosition, savePosition, subscribeToInbox, type InboxConnection } from './inbox-subscription';

const PATH = '/callbacks/secret-for-tests-123';
const entry = (id: number) => ({
  id,
  receivedAt: '2026-11-21T05:00:00.000Z',
  body: CALLBACK_EXAMPLES.video_translate,
});

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('subscribeToInbox', () => {
  it('starts a fresh browser at the end of the log and remembers that position', () => {
    const states: InboxConnection[] = [];
    const stop = subscribeToInbox(PATH, { onCallback: () => {}, onState: (s) => states.push(s) });
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe(`${PATH}/events?since=end`);
    source.emit('ready', { lastId: 7 });
    expect(readPosition(PATH)).toBe(7);
    expect(states).toEqual(['connecting', 'live']);
    stop();
    expect(source.closed).toBe(true);
  });

  it('resumes where this browser stopped', () => {
    savePosition(PATH, 4);
    const stop = subscribeToInbox(PATH, { onCallback: () => {}, onState: () => {} });
    expect(FakeEventSource.instances[0]!.url).toBe(`${PATH}/events?since=4`);
    stop();
  });

  it('hands over each valid callback and reconnects after the last one it saw', () => {
    const received: number[] = [];
    const onRepeatedFailure = vi.fn();
    const stop = subscribeToInbox(PATH, {
      onCallback: (e) => received.push(e.id),
      onState: () => {},
      onRepeatedFailure,
    });
    const first = FakeEventSource.instances[0]!;
    first.emit('ready', { lastId: 0 });
    first.emit('callback', entry(1));
    first.emit('callback', { id: 2, body: { nonsense: true } });
    first.emit('callback', entry(3));
    expect(received).toEqual([1, 3]);

    first.onerror?.();
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances[1]!.url).toBe(`${PATH}/events?since=3`);
    FakeEventSource.instances[1]!.onerror?.();
    vi.advanceTimersByTime(2000);
    FakeEventSource.instances[2]!.onerror?.();
    expect(onRepeatedFailure).toHaveBeenCalledTimes(1);
    stop();
  });

  it('keeps the highest position when several tabs write it', () => {
    savePosition(PATH, 9);
    savePosition(PATH, 5);
    expect(readPosition(PATH)).toBe(9);
    expect(readPosition('/callbacks/another-inbox-0000')).toBeUndefined();
  });
});
