// The inbox's per-sender brake: a token bucket per sender in the database, handed out a lease at a
// time. Two limits made on one database stand for two instances: they share every bucket.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { DEFAULT_CALLBACK_RATE } from './inbox';
import { createSenderLimit, LEASE_MS } from './sender-limit';

beforeEach(async () => {
  await resetTestDatabase();
});

const limitAt = (perSecond: number, burst: number, now: () => number) =>
  createSenderLimit({ database: testDatabase(), perSecond, burst, now });

describe('createSenderLimit', () => {
  it('by default never brakes the service itself at the ingest target (2,000/s, one sender)', async () => {
    let t = 0;
    const limit = limitAt(DEFAULT_CALLBACK_RATE, DEFAULT_CALLBACK_RATE * 10, () => t);
    // Three seconds at 2,000/s from one address, after a burst of 20,000 results at once.
    let braked = 0;
    for (let i = 0; i < 20_000; i++) braked += (await limit.take('service')) > 0 ? 1 : 0;
    for (let ms = 0; ms < 3_000; ms++) {
      t = ms;
      braked += (await limit.take('service')) > 0 ? 1 : 0;
      braked += (await limit.take('service')) > 0 ? 1 : 0;
    }
    expect(braked).toBe(0);
  });

  it('lets exactly the burst through, then asks the sender to wait, then refills', async () => {
    let t = 0;
    const limit = limitAt(2, 3, () => t);
    expect([await limit.take('a'), await limit.take('a'), await limit.take('a')]).toEqual([0, 0, 0]);
    expect(await limit.take('a')).toBe(1);
    expect(await limit.take('b')).toBe(0);
    t += 500;
    expect(await limit.take('a')).toBe(0);
    expect(await limit.take('a')).toBe(1);
  });

  it('asks a braked sender to wait until the bucket holds one more, in whole seconds', async () => {
    let t = 0;
    const limit = limitAt(0.5, 1, () => t);
    expect(await limit.take('a')).toBe(0);
    expect(await limit.take('a')).toBe(2); // an empty bucket at 0.5/s: 2 s
    t = 800;
    expect(await limit.take('a')).toBe(2); // 0.4 held, 0.6 to go: 1.2 s
    t = 1200;
    expect(await limit.take('a')).toBe(1); // 0.6 held, 0.4 to go: 0.8 s
  });

  it('holds the burst across two instances: together they let it through once, not twice', async () => {
    let t = 0;
    const one = limitAt(1, 4, () => t);
    const two = limitAt(1, 4, () => t);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (i % 2 ? two : one).take('a'));
    expect(answers).toEqual([0, 0, 0, 0, 1]);
    expect(await one.take('a')).toBe(1);
    expect(await two.take('a')).toBe(1);
    t += 1000;
    expect(await two.take('a')).toBe(0);
    expect(await one.take('a')).toBe(1);
  });

  it('takes callbacks arriving together from one lease, and one past the burst waits', async () => {
    const limit = limitAt(1, 200, () => 0);
    const answers = await Promise.all(Array.from({ length: 201 }, () => limit.take('a')));
    expect(answers.filter((wait) => wait === 0)).toHaveLength(200);
    expect(answers.filter((wait) => wait > 0)).toHaveLength(1);
  });

  it('asks the shared bucket again once a lease is a second old', async () => {
    let t = 0;
    const one = limitAt(1, 1000, () => t);
    await one.take('a'); // a lease of ten
    const { db } = await testDatabase();
    const tokens = async () =>
      (await db.selectFrom('callback_senders').select('tokens').executeTakeFirstOrThrow()).tokens;
    expect(await tokens()).toBe(990);
    t = LEASE_MS - 1;
    await one.take('a'); // from the lease: the bucket is not asked
    expect(await tokens()).toBe(990);
    t = LEASE_MS;
    await one.take('a'); // a second of refill, less a new lease of ten
    expect(await tokens()).toBeCloseTo(990 + LEASE_MS / 1000 - 10, 5);
  });

  it('keeps a sender’s lease while other senders come and go', async () => {
    const limit = limitAt(1, 1000, () => 0);
    const { db } = await testDatabase();
    const tokens = async (sender: string) =>
      (
        await db
          .selectFrom('callback_senders')
          .select('tokens')
          .where('sender', '=', sender)
          .executeTakeFirstOrThrow()
      ).tokens;
    await limit.take('a'); // a lease of ten
    for (const other of ['b', 'c']) await limit.take(other);
    await limit.take('a'); // still from its lease
    expect(await tokens('a')).toBe(990);
  });

  it('is off at 0 per second, and asks nothing of the database', async () => {
    const limit = limitAt(0, 0, () => 0);
    for (let i = 0; i < 100; i++) expect(await limit.take('a')).toBe(0);
    const { db } = await testDatabase();
    expect(await db.selectFrom('callback_senders').selectAll().execute()).toEqual([]);
  });

  it('forgets senders whose bucket is full again, even those that left with an empty bucket', async () => {
    let t = 0;
    const limit = limitAt(1, 2, () => t);
    for (let i = 0; i < 50; i++) {
      await limit.take(`s${i}`);
      await limit.take(`s${i}`);
    }
    const { db } = await testDatabase();
    const senders = async () => (await db.selectFrom('callback_senders').select('sender').execute()).length;
    expect(await senders()).toBe(50);
    t += 2000; // every bucket is full again: they carry no information any more
    await limit.take('newcomer');
    expect(await senders()).toBe(1);
  });
});
