import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads';

/** A read that answers when told to, with what it was told. */
function heldRead() {
  let answer!: (value: string) => void;
  const promise = new Promise<string>((resolve) => (answer = resolve));
  return { promise, answer };
}

describe('SharedReads', () => {
  it('hands the same read to callers that ask the same question at once', async () => {
    const reads = new SharedReads<string>();
    const held = heldRead();
    let started = 0;
    const start = () => {
      started++;
      return held.promise;
    };
    const first = reads.read('after 5', start);
    const second = reads.read('after 5', start);
    expect(started).toBe(1);
    held.answer('rows');
    expect(await first).toBe('rows');
    expect(await second).toBe('rows');
  });

  it('never answers a caller told of a change with a read that began before it', async () => {
    const reads = new SharedReads<string>();
    const before = heldRead();
    const early = reads.read('after 5', () => before.promise);
    // A callback commits while that read is in flight; the streams it wakes ask again.
    reads.changed();
    const late = reads.read('after 5', async () => 'rows with the new callback');
    before.answer('rows without it');
    expect(await early).toBe('rows without it');
    expect(await late).toBe('rows with the new callback');
  });

  it('starts a new read once the last one has answered', async () => {
    const reads = new SharedReads<number>();
    let started = 0;
    const start = async () => ++started;
    expect(await reads.read('after 5', start)).toBe(1);
    expect(await reads.read('after 5', start)).toBe(2);
  });
});
