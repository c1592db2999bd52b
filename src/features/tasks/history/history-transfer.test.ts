import { beforeEach, describe, expect, it } from 'vitest';
import { getTask, mergeTasks } from './history';
import { lookUpImported } from './history-transfer';
import { createSemaphore } from './semaphore';
import { emptyHistory } from '@/testing/history';

beforeEach(emptyHistory);

describe('imported ids are looked up through the server', () => {
  it("once each, a few at a time, taking the record's answer and ignoring failures", async () => {
    const tasks = ['i2is-a', 'i2is-b', 'i2is-gone'].map((id) => ({
      id,
      kind: 'image_generate' as const,
      source: 'created' as const,
      createdAt: 1,
      updatedAt: 1,
      status: 'PROCESSING',
    }));
    await mergeTasks(tasks);
    let inFlight = 0;
    let most = 0;
    const asked: string[] = [];
    await lookUpImported(tasks, {
      semaphore: createSemaphore(1),
      check: async (id) => {
        asked.push(id);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        if (id === 'i2is-gone')
          return { error: { kind: 'not_found', httpStatus: 404, msg: 'task not found', at: 1 } };
        const task = {
          ...tasks.find((each) => each.id === id)!,
          status: 'SUCCEEDED',
          updatedAt: 2,
          finishedAt: 2,
        };
        return { found: { task, events: [] } };
      },
    });
    expect(asked).toEqual(['i2is-a', 'i2is-b', 'i2is-gone']);
    expect(most).toBe(1);
    expect((await getTask('i2is-a'))?.status).toBe('SUCCEEDED');
    expect((await getTask('i2is-gone'))?.status).toBe('PROCESSING');
  });
});
