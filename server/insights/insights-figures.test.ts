// The figures Insights computes in Node from what the database sums (./insights.ts): a percentile
// of a time-to-finish histogram, each bucket's middle, and the order of the people. No database:
// the seeded-history tests never reach the extreme buckets, unsorted pairs or ties between people.
import { describe, expect, it } from 'vitest';
import { bucketMiddle, byTasksThenName, histogramPercentile } from './insights';

describe("a duration bucket's middle", () => {
  it('is 0.5 s for [0, 1) s, the geometric middle from bucket 1 to 80, 2^20 s from bucket 81', () => {
    expect(bucketMiddle(0)).toBe(0.5);
    expect(bucketMiddle(1)).toBe(2 ** (1 / 8));
    expect(bucketMiddle(5)).toBe(2 ** (1 + 1 / 8));
    expect(bucketMiddle(80)).toBe(2 ** (79 / 4 + 1 / 8));
    expect(bucketMiddle(81)).toBe(2 ** 20);
  });
});

describe('a percentile of a histogram', () => {
  it('is null when the histogram counts nothing', () => {
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(histogramPercentile([[3, 0]], 0.5)).toBeNull();
  });

  it('is the bucket of the task at the lower rank, whatever order the pairs come in', () => {
    // Ten tasks: 4 in bucket 1, 5 in bucket 5, 1 in bucket 9; ranks 0-3, 4-8 and 9.
    const pairs: [number, number][] = [
      [9, 1],
      [1, 4],
      [5, 5],
    ];
    // fraction 0.3 -> rank floor(0.3 * 9) = 2; 0.34 -> rank 3 (the last of bucket 1); 0.45 -> rank 4.
    expect(histogramPercentile(pairs, 0.3)).toBe(bucketMiddle(1));
    expect(histogramPercentile(pairs, 0.34)).toBe(bucketMiddle(1));
    expect(histogramPercentile(pairs, 0.45)).toBe(bucketMiddle(5));
    // 0.95 -> rank floor(8.55) = 8, the last of bucket 5; 1 -> rank 9, bucket 9.
    expect(histogramPercentile(pairs, 0.95)).toBe(bucketMiddle(5));
    expect(histogramPercentile(pairs, 1)).toBe(bucketMiddle(9));
    expect(histogramPercentile(pairs, 0)).toBe(bucketMiddle(1));
  });

  it('passes over buckets that count nothing', () => {
    expect(
      histogramPercentile(
        [
          [0, 0],
          [2, 1],
          [4, 0],
        ],
        0,
      ),
    ).toBe(bucketMiddle(2));
    expect(
      histogramPercentile(
        [
          [2, 1],
          [4, 0],
        ],
        1,
      ),
    ).toBe(bucketMiddle(2));
  });
});

describe('the order of the people', () => {
  const person = (creator: string | null, creatorId: string | null, tasks: number) => ({
    creatorId,
    creator,
    tasks,
    succeeded: 0,
    failed: 0,
    images: 0,
    videoMinutes: 0,
    languages: [],
  });

  it('is most tasks first, then by name, then by id; a person without a name or id sorts as empty', () => {
    const people = [
      person('Bo', 'u-2', 3),
      person('Ana', 'u-9', 3),
      person('Ana', 'u-1', 3),
      person('Zed', 'u-3', 7),
      person(null, null, 3),
      person('Ana', null, 3),
    ];
    expect(people.sort(byTasksThenName).map((p) => [p.creator, p.creatorId])).toEqual([
      ['Zed', 'u-3'],
      [null, null],
      ['Ana', null],
      ['Ana', 'u-1'],
      ['Ana', 'u-9'],
      ['Bo', 'u-2'],
    ]);
  });
});
