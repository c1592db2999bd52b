import { describe, expect, it } from 'vitest';
import { outcomeFor } from './magic-words';
import { jitterFor, newTaskId, phaseEnds, stateAt, TaskStore, terminalAt, type TaskRecord } from './tasks';

const T0 = Date.UTC(2026, 0, 1);

function task(kind: TaskRecord['kind'], overrides: Partial<TaskRecord> = {}): TaskRecord {
  const common = {
    id: newTaskId(kind),
    createdAt: T0,
    timeScale: 1,
    origin: 'http://e.test',
    outcome: outcomeFor(''),
  };
  const fields =
    kind === 'image_generate'
      ? { kind, prompt: 'p', ratio: '1:1', quality: '2K', module: 'std' }
      : kind === 'video_translate'
        ? { kind, language: 'English', name: 'English-x', videoUrl: 'https://v.test', enableCaption: false }
        : { kind, prompt: '', aspectRatio: '9:16' as const, resolution: '720p' as const, duration: 4 };
  return { ...common, ...fields, ...overrides } as TaskRecord;
}

describe('task ids', () => {
  it('are prefixed per kind and random', () => {
    expect(newTaskId('image_generate')).toMatch(/^i2is-[0-9a-f]{32}$/);
    expect(newTaskId('video_translate')).toMatch(/^vt-[0-9a-f]{32}$/);
    expect(newTaskId('image_to_video')).toMatch(/^i2v-[0-9a-f]{32}$/);
    expect(newTaskId('image_to_video')).not.toBe(newTaskId('image_to_video'));
  });
});

describe('jitter', () => {
  it('is between 0.85 and 1.15 and fixed per id', () => {
    for (let i = 0; i < 200; i++) {
      const id = newTaskId('image_generate');
      const jitter = jitterFor(id);
      expect(jitter).toBeGreaterThanOrEqual(0.85);
      expect(jitter).toBeLessThanOrEqual(1.15);
      expect(jitterFor(id)).toBe(jitter);
    }
  });
});

describe('progression, computed from the creation time', () => {
  it('image_generate: GENERATING until ~8 s, then SUCCEEDED (both sides of the boundary)', () => {
    const t = task('image_generate');
    const end = terminalAt(t)!;
    expect(end - T0).toBe(Math.round(8_000 * jitterFor(t.id)));
    expect(stateAt(t, T0).status).toBe('GENERATING');
    expect(stateAt(t, end - 1)).toEqual({ status: 'GENERATING', terminal: false });
    expect(stateAt(t, end)).toEqual({ status: 'SUCCEEDED', terminal: true });
  });

  it('video_translate: PENDING ~3 s, PROCESSING ~20 s, then SUCCEEDED', () => {
    const t = task('video_translate');
    const j = jitterFor(t.id);
    const [pending, processing] = phaseEnds(t) as [number, number];
    expect(pending - T0).toBe(Math.round(3_000 * j));
    expect(processing - T0).toBe(Math.round(23_000 * j));
    expect(stateAt(t, pending - 1).status).toBe('PENDING');
    expect(stateAt(t, pending).status).toBe('PROCESSING');
    expect(stateAt(t, processing - 1).status).toBe('PROCESSING');
    expect(stateAt(t, processing).status).toBe('SUCCEEDED');
  });

  it('image_to_video: PENDING ~3 s, PROCESSING ~15 s, then SUCCEEDED', () => {
    const t = task('image_to_video');
    const j = jitterFor(t.id);
    const [pending, processing] = phaseEnds(t) as [number, number];
    expect(processing - T0).toBe(Math.round(18_000 * j));
    expect(stateAt(t, pending - 1).status).toBe('PENDING');
    expect(stateAt(t, processing - 1).status).toBe('PROCESSING');
    expect(stateAt(t, processing).status).toBe('SUCCEEDED');
  });

  it('scales every duration by the task time scale', () => {
    const t = task('video_translate', { timeScale: 0.05 });
    const end = terminalAt(t)!;
    expect(end - T0).toBe(Math.round(23_000 * 0.05 * jitterFor(t.id)));
    expect(stateAt(t, end - 1).status).toBe('PROCESSING');
    expect(stateAt(t, end).status).toBe('SUCCEEDED');
  });

  it('with time scale 0 a task is finished at once', () => {
    expect(stateAt(task('image_generate', { timeScale: 0 }), T0).status).toBe('SUCCEEDED');
  });

  it('a failing task runs through the same statuses and ends FAILED', () => {
    const t = task('image_to_video', { outcome: outcomeFor('emulator:fail') });
    expect(stateAt(t, T0).status).toBe('PENDING');
    expect(stateAt(t, terminalAt(t)!)).toEqual({ status: 'FAILED', terminal: true });
  });

  it('a stuck task moves to its status and stays there, never terminal', () => {
    const t = task('video_translate', { outcome: outcomeFor('emulator:status=QUEUED_FOR_REVIEW') });
    expect(terminalAt(t)).toBeUndefined();
    expect(stateAt(t, T0).status).toBe('PENDING');
    expect(stateAt(t, T0 + 3_000 * 1.15)).toEqual({ status: 'QUEUED_FOR_REVIEW', terminal: false });
    expect(stateAt(t, T0 + 365 * 24 * 3_600_000).status).toBe('QUEUED_FOR_REVIEW');
  });
});

describe('TaskStore', () => {
  it('finds a task by id, and only for its own kind when a kind is given', () => {
    const store = new TaskStore();
    const t = task('image_generate');
    store.add(t);
    expect(store.get(t.id)).toBe(t);
    expect(store.get(t.id, 'image_generate')).toBe(t);
    expect(store.get(t.id, 'image_to_video')).toBeUndefined();
    expect(store.get('nope')).toBeUndefined();
  });

  it('forgets the oldest task beyond its capacity', () => {
    const store = new TaskStore(2);
    const [a, b, c] = [task('image_generate'), task('image_generate'), task('image_generate')];
    store.add(a);
    store.add(b);
    store.add(c);
    expect(store.size).toBe(2);
    expect(store.get(a.id)).toBeUndefined();
    expect(store.get(c.id)).toBe(c);
  });
});
