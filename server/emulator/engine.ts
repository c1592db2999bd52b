// The emulator's state in one place: the task store, runtime settings, timers and the outgoing
// callbacks. Routes create tasks through `addTask`, which also arranges the completion callback.
import type { TaskType } from '../../src/api/schemas';
import { isHttpUrl } from '../../src/api/core/http-url';
import { sendCallback } from './callbacks';
import { EMULATED_FAILURE_MESSAGE, type TaskOutcome } from './magic-words';
import type { EmulatorOptions } from './options';
import { Scheduler } from './scheduler';
import { SettingsState } from './settings';
import { callbackBody } from './task-views';
import { UploadStore } from './upload-store';
import {
  newTaskId,
  terminalAt,
  TaskStore,
  type ImageGenerateTaskRecord,
  type ImageToVideoTaskRecord,
  type TaskRecord,
  type VideoTranslateTaskRecord,
} from './tasks';

type KindFields<T> = Omit<
  T,
  'id' | 'createdAt' | 'timeScale' | 'origin' | 'outcome' | 'callbackUrl' | 'kind'
>;

export type SeedTaskInput = SeedTaskOptions &
  (
    | { kind: 'image_generate'; params?: Partial<KindFields<ImageGenerateTaskRecord>> }
    | { kind: 'video_translate'; params?: Partial<KindFields<VideoTranslateTaskRecord>> }
    | { kind: 'image_to_video'; params?: Partial<KindFields<ImageToVideoTaskRecord>> }
  );

interface SeedTaskOptions {
  /** ms since epoch; default now. A time far enough in the past gives a finished task. */
  createdAt?: number;
  /** Default 'succeed'; 'fail' ends FAILED with the emulated failure message. */
  outcome?: 'succeed' | 'fail' | TaskOutcome;
  /** Origin used in result links; default http://127.0.0.1:8787. */
  origin?: string;
  callbackUrl?: string;
  timeScale?: number;
}

const SEED_DEFAULTS = {
  image_generate: {
    prompt: 'A lighthouse on a cliff at dusk, warm light',
    ratio: '9:16',
    quality: '2K',
    module: 'std',
  },
  video_translate: {
    language: 'English',
    name: 'English-Product tour',
    videoUrl: 'https://example.com/video.mp4',
    enableCaption: true,
  },
  image_to_video: {
    prompt: 'Slow camera push-in',
    model: 'V',
    aspectRatio: '9:16',
    resolution: '720p',
    duration: 8,
    audio: false,
  },
} as const;

export class EmulatorEngine {
  readonly store = new TaskStore();
  readonly scheduler = new Scheduler();
  readonly settings: SettingsState;
  readonly uploads: UploadStore;

  constructor(readonly options: EmulatorOptions) {
    this.settings = new SettingsState({ timeScale: options.timeScale, disabled: options.disabled });
    this.uploads = new UploadStore(options.dataDir, options.uploadMaxBytes, () => this.now(), {
      diskMaxBytes: options.uploadDiskMaxBytes,
      quotaBytesPerDay: options.uploadQuotaBytesPerDay,
      tallies: options.uploadTallies,
    });
    // Expired uploads go at start and every hour, whether or not anyone uploads.
    this.uploads.startSweeping();
  }

  now(): number {
    return this.options.now();
  }

  /** Stores the task and, if it has an http(s) callback_url and will finish, schedules the callback. */
  addTask(task: TaskRecord): TaskRecord {
    this.store.add(task);
    const endsAt = terminalAt(task);
    if (endsAt !== undefined && isHttpUrl(task.callbackUrl)) {
      this.scheduler.after(endsAt - this.now(), () => {
        // The body is built at its terminal time, not from a clock that may lag behind.
        sendCallback(task.callbackUrl, callbackBody(task, Math.max(endsAt, this.now())), {
          fetch: this.options.fetch,
          scheduler: this.scheduler,
          timeoutMs: this.options.callbackTimeoutMs,
          retryDelayMs: this.options.callbackRetryDelayMs,
          log: this.options.log,
        });
      });
    }
    return task;
  }

  /** The fields every new task starts with; routes add their kind-specific fields. */
  taskBase(kind: TaskType, origin: string, outcome: TaskOutcome, callbackUrl: string | undefined) {
    return {
      id: newTaskId(kind),
      createdAt: this.now(),
      timeScale: this.settings.timeScale,
      origin,
      outcome,
      callbackUrl,
    };
  }

  /** For demos and tests: a task with any creation time and outcome; returns its id. */
  seedTask(input: SeedTaskInput): string {
    const outcome: TaskOutcome =
      input.outcome === 'fail'
        ? { type: 'fail', errorMessage: EMULATED_FAILURE_MESSAGE }
        : input.outcome === 'succeed' || !input.outcome
          ? { type: 'succeed' }
          : input.outcome;
    const base = {
      ...this.taskBase(input.kind, input.origin ?? 'http://127.0.0.1:8787', outcome, input.callbackUrl),
      createdAt: input.createdAt ?? this.now(),
      timeScale: input.timeScale ?? this.settings.timeScale,
    };
    const task = { ...SEED_DEFAULTS[input.kind], ...input.params, ...base, kind: input.kind } as TaskRecord;
    return this.addTask(task).id;
  }

  close(): void {
    this.uploads.stopSweeping();
    this.scheduler.close();
    this.store.clear();
  }
}
