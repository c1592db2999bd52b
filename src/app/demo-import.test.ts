// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { historySnapshot, mergeTasks } from '@/features/tasks/history/history';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { importDemoTasks } from './demo-import';
import { emptyHistory } from '@/testing/history';

const task = (id: string, createdAt = 1): TaskRecord => ({
  id,
  kind: 'image_generate',
  source: 'created',
  createdAt,
  updatedAt: createdAt,
  status: '',
});
const ids = () =>
  historySnapshot()
    .tasks.map((t) => t.id)
    .sort();

beforeEach(async () => {
  await emptyHistory();
  localStorage.clear();
});

describe('importDemoTasks', () => {
  it('fills an empty history once per server run', async () => {
    expect(await importDemoTasks('run-1', [task('a'), task('b')])).toBe(true);
    expect(ids()).toEqual(['a', 'b']);
    expect(await importDemoTasks('run-1', [task('a'), task('b')])).toBe(false);
  });

  it('replaces the tasks of an earlier demo run (the emulator forgot them)', async () => {
    await importDemoTasks('run-1', [task('a'), task('b')]);
    expect(await importDemoTasks('run-2', [task('c')])).toBe(true);
    expect(ids()).toEqual(['c']);
  });

  it("never touches a history with the user's own tasks", async () => {
    await mergeTasks([task('mine')]);
    expect(await importDemoTasks('run-1', [task('a')])).toBe(false);
    expect(ids()).toEqual(['mine']);
  });
});
