// The task store and how tasks progress. Status is computed from the creation time whenever it is
// asked for (no polling loop): the provider's statuses in order, each lasting a scaled duration
// with a small per-task jitter, then SUCCEEDED or FAILED. A task keeps the time scale it was
// created with, so changing the scale at runtime never sends a finished task back in time.
import { createHash, randomUUID } from 'node:crypto';
import type { TaskType } from '../../src/api/schemas';
import { TASK_ID_PREFIXES } from '../../src/api/query/task-types';
import type { TaskOutcome } from './magic-words';

export interface TaskBase {
  id: string;
  /** ms since epoch */
  createdAt: number;
  timeScale: number;
  /** Origin of the creating request; result links are built on it so they work on any host/port. */
  origin: string;
  outcome: TaskOutcome;
  callbackUrl?: string;
}

export interface ImageGenerateTaskRecord extends TaskBase {
  kind: 'image_generate';
  prompt: string;
  ratio: string;
  quality: string;
  module: string;
}

export interface VideoTranslateTaskRecord extends TaskBase {
  kind: 'video_translate';
  language: string;
  /** The translated video's name (section 2.4). */
  name: string;
  videoUrl: string;
  enableCaption: boolean;
}

export interface ImageToVideoTaskRecord extends TaskBase {
  kind: 'image_to_video';
  prompt: string;
  model: 'V' | 'KL';
  aspectRatio: '9:16' | '16:9';
  resolution: '720p' | '1080p' | '4k';
  /** seconds */
  duration: number;
  /** generate_audio: the served MP4 then has an audio track. */
  audio: boolean;
}

export type TaskRecord = ImageGenerateTaskRecord | VideoTranslateTaskRecord | ImageToVideoTaskRecord;

/** Unguessable, like the provider's: ids are the only key to a task and its media. */
export function newTaskId(kind: TaskType): string {
  return `${TASK_ID_PREFIXES[kind]}${randomUUID().replaceAll('-', '')}`;
}

/** Unscaled phase durations in ms (provider-notes: GENERATING; PENDING then PROCESSING). */
export const PHASES: Record<TaskType, readonly { status: string; ms: number }[]> = {
  image_generate: [{ status: 'GENERATING', ms: 8_000 }],
  video_translate: [
    { status: 'PENDING', ms: 3_000 },
    { status: 'PROCESSING', ms: 20_000 },
  ],
  image_to_video: [
    { status: 'PENDING', ms: 3_000 },
    { status: 'PROCESSING', ms: 15_000 },
  ],
};

/** A task told to get stuck (emulator:status=WORD) moves to WORD after this long. */
const STUCK_AFTER_MS = 2_500;

/** 0.85 to 1.15, fixed per task id, so tasks of one request do not all finish at the same instant. */
export function jitterFor(id: string): number {
  const byte = createHash('sha256').update(id).digest()[0]!;
  return 0.85 + (byte / 255) * 0.3;
}

/** Whole milliseconds, so a boundary means the same thing to every caller. */
function scaled(task: TaskRecord, ms: number): number {
  return Math.round(ms * task.timeScale * jitterFor(task.id));
}

/** Absolute end time of each phase: the status is `phases[i].status` until `ends[i]`. */
export function phaseEnds(task: TaskRecord): number[] {
  let unscaled = 0;
  return PHASES[task.kind].map((phase) => {
    unscaled += phase.ms;
    return task.createdAt + scaled(task, unscaled);
  });
}

/** When the task reaches its terminal status, or undefined for a task that never does. */
export function terminalAt(task: TaskRecord): number | undefined {
  if (task.outcome.type === 'stuck') return undefined;
  return phaseEnds(task).at(-1);
}

interface TaskState {
  status: string;
  terminal: boolean;
}

export function stateAt(task: TaskRecord, now: number): TaskState {
  const phases = PHASES[task.kind];
  if (task.outcome.type === 'stuck') {
    if (now >= task.createdAt + scaled(task, STUCK_AFTER_MS))
      return { status: task.outcome.status, terminal: false };
    return { status: phases[0]!.status, terminal: false };
  }
  const ends = phaseEnds(task);
  const index = ends.findIndex((end) => now < end);
  if (index !== -1) return { status: phases[index]!.status, terminal: false };
  return { status: task.outcome.type === 'fail' ? 'FAILED' : 'SUCCEEDED', terminal: true };
}

/** In-memory, bounded so a dev server left running for days does not grow without limit. */
export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(private readonly capacity = 10_000) {}

  add(task: TaskRecord): void {
    this.tasks.set(task.id, task);
    if (this.tasks.size > this.capacity) {
      const oldest = this.tasks.keys().next().value;
      if (oldest !== undefined) this.tasks.delete(oldest);
    }
  }

  get<K extends TaskType>(id: string, kind?: K): Extract<TaskRecord, { kind: K }> | undefined {
    const task = this.tasks.get(id);
    if (!task || (kind !== undefined && task.kind !== kind)) return undefined;
    return task as Extract<TaskRecord, { kind: K }>;
  }

  get size(): number {
    return this.tasks.size;
  }

  clear(): void {
    this.tasks.clear();
  }
}
