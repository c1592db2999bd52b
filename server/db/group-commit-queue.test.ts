import { describe, expect, it } from 'vitest';
import { GroupCommitQueue, type GroupCommitOptions } from './group-commit-queue';

/** A commit that holds each group until `release()`, recording the groups it was given. */
function heldCommits(fail: (item: number) => boolean = () => false) {
  const groups: number[][] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  let mostRunning = 0;
  const commit: GroupCommitOptions<number, string>['commit'] = async (group) => {
    groups.push([...group]);
    running++;
    mostRunning = Math.max(mostRunning, running);
    await new Promise<void>((resolve) => waiting.push(resolve));
    running--;
    if (group.some(fail)) throw new Error(`bad item in ${group.join(',')}`);
    return group.map((item) => `stored ${item}`);
  };
  return {
    groups,
    commit,
    mostRunning: () => mostRunning,
    /** Lets every held commit finish, and what they start meanwhile, until none is held. */
    async releaseAll() {
      for (let turns = 0; turns < 50; turns++) {
        await new Promise((resolve) => setImmediate(resolve));
        waiting.splice(0).forEach((resolve) => resolve());
      }
    },
  };
}

describe('GroupCommitQueue', () => {
  it('writes the first item at once and groups what arrives while it commits into the next transaction', async () => {
    const commits = heldCommits();
    const queue = new GroupCommitQueue({ commit: commits.commit });
    const answers = [queue.add(1)];
    expect(commits.groups).toEqual([[1]]);
    answers.push(queue.add(2), queue.add(3), queue.add(4));
    await commits.releaseAll();
    expect(await Promise.all(answers)).toEqual(['stored 1', 'stored 2', 'stored 3', 'stored 4']);
    expect(commits.groups).toEqual([[1], [2, 3, 4]]);
  });

  it('answers nobody before the transaction holding their item has committed', async () => {
    const commits = heldCommits();
    const queue = new GroupCommitQueue({ commit: commits.commit });
    let answered = false;
    void queue.add(1).then(() => (answered = true));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    await commits.releaseAll();
    expect(answered).toBe(true);
  });

  it('with gather, waits a turn of the event loop so items of the same moment share the first group', async () => {
    const commits = heldCommits();
    const queue = new GroupCommitQueue({ commit: commits.commit, gather: true });
    const answers = [queue.add(1), queue.add(2)];
    // The queue's own turn was asked for first, so it comes first (a timer here could fire before
    // it on a busy machine: timers and immediates have no fixed order outside an I/O callback).
    await new Promise((resolve) => setImmediate(resolve));
    expect(commits.groups).toEqual([[1, 2]]);
    answers.push(queue.add(3));
    await commits.releaseAll();
    await Promise.all(answers);
    expect(commits.groups).toEqual([[1, 2], [3]]);
  });

  it('keeps at most inFlight groups committing, each no larger than groupSize says', async () => {
    const commits = heldCommits();
    const queue = new GroupCommitQueue({
      commit: commits.commit,
      inFlight: 2,
      gather: true,
      groupSize: (pending) => Math.min(pending.length, 2),
    });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((item) => queue.add(item));
    await commits.releaseAll();
    await Promise.all(answers);
    expect(commits.mostRunning()).toBe(2);
    expect(commits.groups).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
  });

  it('writes a group in the given order', async () => {
    const commits = heldCommits();
    const queue = new GroupCommitQueue({ commit: commits.commit, gather: true, order: (a, b) => a - b });
    const answers = [3, 1, 2].map((item) => queue.add(item));
    await commits.releaseAll();
    expect(await Promise.all(answers)).toEqual(['stored 3', 'stored 1', 'stored 2']);
    expect(commits.groups).toEqual([[1, 2, 3]]);
  });

  it('writes a failed group again item by item: only the bad item fails', async () => {
    const commits = heldCommits((item) => item === 2);
    const queue = new GroupCommitQueue({ commit: commits.commit, gather: true });
    const settling = Promise.allSettled([1, 2, 3].map((item) => queue.add(item)));
    await commits.releaseAll();
    const settled = await settling;
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commits.groups).toEqual([[1, 2, 3], [1], [2], [3]]);
    // The queue goes on after a failure.
    const next = queue.add(4);
    await commits.releaseAll();
    expect(await next).toBe('stored 4');
    await queue.settled();
  });
});
