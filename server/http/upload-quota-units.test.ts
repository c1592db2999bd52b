// The upload quota's parts on their own, in memory (no database, no sockets): the setting's bounds,
// the memory tallies' daily sweep, and how an allowance sets aside, charges and refuses.
import { describe, expect, it } from 'vitest';
import {
  memoryUploadTallies,
  parseUploadLimitMb,
  UPLOAD_LIMIT_MB_MAX,
  UPLOAD_SET_ASIDE_BYTES,
  UploadQuota,
  type UploadTallies,
} from './upload-quota';

const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

describe('parseUploadLimitMb', () => {
  it('takes a whole number of megabytes from 1 to the maximum, spaces around it allowed', () => {
    expect(parseUploadLimitMb('1')).toBe(1);
    expect(parseUploadLimitMb(' 12 ')).toBe(12);
    expect(parseUploadLimitMb(String(UPLOAD_LIMIT_MB_MAX))).toBe(UPLOAD_LIMIT_MB_MAX);
  });

  it('refuses unset, blank, 0, one past the maximum and anything but digits', () => {
    for (const raw of [
      undefined,
      '',
      '  ',
      '0',
      String(UPLOAD_LIMIT_MB_MAX + 1),
      '12a',
      'a12',
      '1.5',
      '-1',
      '+1',
      '1e3',
      '1 2',
    ])
      expect(parseUploadLimitMb(raw), JSON.stringify(raw)).toBeUndefined();
  });
});

describe('memoryUploadTallies', () => {
  it("drops earlier days' tallies once more than 1000 people are counted, keeping today's", async () => {
    const fill = async (people: number) => {
      const tallies = memoryUploadTallies();
      for (let i = 0; i < people - 1; i++) await tallies.add(`p${i}`, 1, 10, 100);
      await tallies.add('today', 2, 7, 100);
      return tallies;
    };
    const atTheBound = await fill(1000);
    expect(await atTheBound.used('p0', 1)).toBe(10);
    const pastIt = await fill(1001);
    expect(await pastIt.used('p0', 1)).toBe(0);
    expect(await pastIt.used('today', 2)).toBe(7);
  });
});

/** Memory tallies that also record each call, to count the queries a database would get. */
function recordedTallies() {
  const inner = memoryUploadTallies();
  const calls: string[] = [];
  const tallies: UploadTallies = {
    add: (person, day, bytes, limit) => (
      calls.push(`add ${bytes / MB}`),
      inner.add(person, day, bytes, limit)
    ),
    subtract: (person, day, bytes) => (
      calls.push(`subtract ${bytes / MB}`),
      inner.subtract(person, day, bytes)
    ),
    used: (person, day) => inner.used(person, day),
  };
  return { tallies, calls };
}

describe('UploadQuota', () => {
  const noon = 100 * DAY_MS + DAY_MS / 2;

  it('allows 2048 MB a day unless told otherwise', () => {
    expect(new UploadQuota().bytesPerDay).toBe(2048 * MB);
  });

  it('charges an upload without a name to the one shared allowance', async () => {
    const quota = new UploadQuota(10 * MB, () => noon);
    const upload = quota.open(null);
    expect(await upload.take(MB)).toBeUndefined();
    await upload.keep();
    expect(await quota.used(null)).toBe(MB);
    expect(await quota.used('ada')).toBe(0);
  });

  it('asks for more only when the set-aside is used up, and gives nothing back when nothing is left over', async () => {
    const { tallies, calls } = recordedTallies();
    const quota = new UploadQuota(100 * MB, () => noon, tallies);
    const upload = quota.open('ada');
    await upload.take(MB);
    await upload.take(UPLOAD_SET_ASIDE_BYTES - MB); // exactly what was set aside
    expect(calls).toEqual(['add 4']);
    await upload.keep();
    expect(calls).toEqual(['add 4']);
    expect(await quota.used('ada')).toBe(UPLOAD_SET_ASIDE_BYTES);
  });

  it('asks once for a chunk larger than the set-aside that does not fit', async () => {
    const { tallies, calls } = recordedTallies();
    const quota = new UploadQuota(4 * MB, () => noon, tallies);
    expect((await quota.open('ada').take(5 * MB))?.status).toBe(429);
    expect(calls).toEqual(['add 5']);
  });

  it('names what the person uploaded before this file, not what this upload set aside', async () => {
    const quota = new UploadQuota(10 * MB, () => noon);
    const earlier = quota.open('ada');
    await earlier.take(5 * MB);
    await earlier.keep();
    const upload = quota.open('ada');
    expect(await upload.take(MB)).toBeUndefined();
    const refusal = await upload.take(6 * MB);
    expect(refusal).toEqual({
      status: 429,
      retryAfterSeconds: DAY_MS / 2 / 1000,
      message:
        'Daily upload limit: you have uploaded 5 MB of 10 MB today, and this file does not fit in what is left. ' +
        'It starts again at 00:00 UTC; until then, paste a public URL.',
    });
  });
});
