// A callback is a hint (issue 24): it makes this browser check a task it follows, and nothing else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/api/query/query-client';
import type { CallbackBody } from '@/api/schemas';
import { applyTaskUpdate, getTask, recordCreatedTasks } from '@/features/tasks/history/history';
import { applyCallback, createApplyQueue } from './apply-callback';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/parse-callback';
import { emptyHistory } from '@/testing/history';

let n = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now()}-${n++}`;
const PHISH = 'https://evil.example/phish.mp4';

function videoCallback(taskId: string, overrides: Partial<CallbackBody['data']> = {}): CallbackBody {
  const example = CALLBACK_EXAMPLES.video_translate;
  return { ...example, data: { ...example.data, task_id: taskId, ...overrides } } as CallbackBody;
}

let invalidate: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await emptyHistory();
  invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
});
afterEach(() => vi.restoreAllMocks());

describe('applyCallback', () => {
  it('asks for a status check of a task this browser follows, and takes nothing from the callback', async () => {
    const id = uniqueId('vt');
    await recordCreatedTasks('video_translate', { name: 'demo' }, [{ task_id: id, language: 'English' }]);
    expect(await applyCallback(videoCallback(id, { video_url: PHISH }))).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['tasks', 'video_translate', id] });
    const record = await getTask(id);
    expect(record).toMatchObject({ id, status: '', source: 'created' });
    expect(JSON.stringify(record)).not.toContain('evil.example');
  });

  it('never adds a task it has never seen', async () => {
    const id = uniqueId('i2is');
    const example = CALLBACK_EXAMPLES.image_generate;
    expect(await applyCallback({ ...example, data: { ...example.data, task_id: id } })).toBe(false);
    expect(await getTask(id)).toBeUndefined();
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('leaves a finished task alone (a FAILED callback cannot turn a success into a failure)', async () => {
    const id = uniqueId('vt');
    await recordCreatedTasks('video_translate', {}, [{ task_id: id, language: 'Japanese' }]);
    await applyTaskUpdate(id, 'video_translate', { task_id: id, status: 'SUCCEEDED' }, 'poll');
    expect(await applyCallback(videoCallback(id, { status: 'FAILED', error_message: 'forged' }))).toBe(false);
    expect((await getTask(id))?.status).toBe('SUCCEEDED');
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('handles queued callbacks in order', async () => {
    const id = uniqueId('vt');
    await recordCreatedTasks('video_translate', {}, [{ task_id: id, language: 'Japanese' }]);
    const apply = createApplyQueue();
    const done: number[] = [];
    await Promise.all([
      apply(videoCallback(id, { status: 'FAILED', error_message: 'first' }), () => done.push(1)),
      apply(videoCallback(id, { status: 'SUCCEEDED', error_message: '' }), () => done.push(2)),
    ]);
    expect(done).toEqual([1, 2]);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });
});
