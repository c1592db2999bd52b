// The shared upload tallies (PGlite): adding stops at the limit exactly, and days before yesterday
// are dropped on an instance's first upload of a day, once that day.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { databaseUploadTallies } from './upload-tallies';

const DAY = 20_000;
beforeEach(async () => {
  await resetTestDatabase();
});

const days = async () =>
  (await (await testDatabase()).db.selectFrom('upload_tallies').select('day').orderBy('day').execute()).map(
    (row) => row.day,
  );
const tallyOn = async (day: number) =>
  (await testDatabase()).db.insertInto('upload_tallies').values({ person: 'bea', day, bytes: 1 }).execute();

describe('upload tallies in the database', () => {
  it('add up to exactly the limit and refuse one byte past it', async () => {
    const tallies = databaseUploadTallies(testDatabase());
    expect(await tallies.add('ada', DAY, 60, 100)).toBe(60);
    expect(await tallies.add('ada', DAY, 41, 100)).toBeUndefined();
    expect(await tallies.add('ada', DAY, 40, 100)).toBe(100);
    expect(await tallies.used('ada', DAY)).toBe(100);
  });

  it("drop the days before yesterday on a day's first upload, and only then", async () => {
    for (const day of [DAY - 2, DAY - 1]) await tallyOn(day);
    const tallies = databaseUploadTallies(testDatabase());
    await tallies.add('ada', DAY, 1, 100);
    expect(await days()).toEqual([DAY - 1, DAY]);
    // Swept once for the day: an older row written since stays until the next day's first upload.
    await tallyOn(DAY - 5);
    await tallies.add('ada', DAY, 1, 100);
    expect(await days()).toEqual([DAY - 5, DAY - 1, DAY]);
    await tallies.add('ada', DAY + 1, 1, 100);
    expect(await days()).toEqual([DAY, DAY + 1]);
  });
});
