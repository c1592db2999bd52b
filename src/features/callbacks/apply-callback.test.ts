import { beforeEach, describe, expect, it } from 'vitest';
import type { CallbackBody } from '@/api/schemas';
import {
  applyTaskUpdate,
  getTask,
  onTaskFinished,
  recordCreatedTasks,
  resetHistoryMemoryForTests,
} from '@/features/tasks/history';
import { applyCallback, createApplyQueue } from './apply-callback';
import { CALLBACK_EXAMPLES } from './parse-callback';

let n = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now()}-${n++}`;

function videoCallback(taskId: string, overrides: Partial<CallbackBody['data']> = {}): CallbackBody {
  const example = CALLBACK_EXAMPLES.video_translate;
  return { ...example, data: { ...example.data, task_id: taskId, ...overrides } } as CallbackBody;
}

beforeEach(() => resetHistoryMemoryForTests());

describe('applyCallback', () => {
  it('completes a task this browser created, with every result field', async () => {
    const id = uniqueId('vt');
    await recordCreatedTasks('video_translate', { name: 'demo' }, [{ task_id: id, language: 'English' }]);
    await applyCallback(videoCallback(id, { name: 'English-demo' }));
    const record = await getTask(id);
    expect(record).toMatchObject({
      id,
      kind: 'video_translate',
      source: 'created',
      status: 'SUCCEEDED',
      language: 'English',
      lastSource: 'callback',
      result: {
        name: 'English-demo',
        video_url: CALLBACK_EXAMPLES.video_translate.data.video_url,
        caption_url: CALLBACK_EXAMPLES.video_translate.data.caption_url,
      },
    });
    expect(record?.finishedAt).toBeTypeOf('number');
  });

  it('adds a task it has never seen, with the kind the callback names', async () => {
    const example = CALLBACK_EXAMPLES.image_generate;
    const id = uniqueId('i2is');
    await applyCallback({ ...example, data: { ...example.data, task_id: id } });
    expect(await getTask(id)).toMatchObject({
      id,
      kind: 'image_generate',
      source: 'callback',
      status: 'SUCCEEDED',
      result: { image_url: example.data.image_url },
    });
  });

  it('keeps a FAILED callback with its error message', async () => {
    const example = CALLBACK_EXAMPLES.image_to_video;
    const id = uniqueId('i2v');
    await applyCallback({
      ...example,
      data: { task_id: id, status: 'FAILED', error_message: 'Quota exceeded' },
    });
    expect(await getTask(id)).toMatchObject({
      status: 'FAILED',
      result: { error_message: 'Quota exceeded' },
    });
  });

  it('is not undone by a late poll answer, and reports the task finished once', async () => {
    const id = uniqueId('vt');
    await recordCreatedTasks('video_translate', {}, [{ task_id: id, language: 'Japanese' }]);
    const finished: string[] = [];
    const stop = onTaskFinished((record, source) => record.id === id && finished.push(source));
    await applyCallback(videoCallback(id));
    await applyTaskUpdate(id, 'video_translate', { task_id: id, status: 'PROCESSING' }, 'poll');
    await applyCallback(videoCallback(id));
    stop();
    expect((await getTask(id))?.status).toBe('SUCCEEDED');
    expect(finished).toEqual(['callback']);
  });

  it('applies queued callbacks in order', async () => {
    const id = uniqueId('vt');
    const apply = createApplyQueue();
    const done: number[] = [];
    await Promise.all([
      apply(videoCallback(id, { status: 'FAILED', error_message: 'first' }), () => done.push(1)),
      apply(videoCallback(id, { status: 'SUCCEEDED', error_message: '' }), () => done.push(2)),
    ]);
    expect(done).toEqual([1, 2]);
    expect((await getTask(id))?.status).toBe('SUCCEEDED');
  });
});
