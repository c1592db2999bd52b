// Spending limits: what GET /__console/limits answers and what a creation refused with HTTP 429
// carries. The server enforces them (server/limits), the forms show what is left and the refusal,
// the People screen edits them. Plain values only: the server imports this file too.
export const LIMIT_MEASURES = ['tasks', 'images', 'video_minutes'] as const;
export type LimitMeasure = (typeof LIMIT_MEASURES)[number];
export const LIMIT_PERIODS = ['day', 'month'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export type LimitScope = 'team' | 'person';

/**
 * The envelope code of the console's own refusal (HTTP 429): the service answers its rate limit with
 * HTTP 429 too (code 429 in the emulator), which the forms show as the service's banner.
 */
export const LIMIT_REFUSAL_CODE = 429_100;

/** The largest limit an admin may set (per measure and period). */
export const LIMIT_MAX = 1_000_000;

export const MEASURE_LABELS: Record<LimitMeasure, string> = {
  tasks: 'Tasks',
  images: 'Images',
  video_minutes: 'Video minutes',
};

/** One limit that applies to the person asking, with what is used of it now. */
export interface LimitStatus {
  scope: LimitScope;
  measure: LimitMeasure;
  period: LimitPeriod;
  max: number;
  /** Video minutes to one decimal; tasks and images whole. */
  used: number;
  remaining: number;
  /** ISO 8601: the next UTC midnight, or the first of next month. */
  resetsAt: string;
}

/** The body of a 429 from a creation: `msg` is the sentence the form shows by its submit button. */
export interface LimitRefusal extends LimitStatus {
  /** What the refused creation asked for in this measure (0 when unknown: a translation's minutes). */
  asked: number;
  message: string;
}

/** A configured limit as the admin's editor reads and writes it. */
export interface LimitSetting {
  measure: LimitMeasure;
  period: LimitPeriod;
  max: number;
}

const UNITS: Record<LimitMeasure, [string, string]> = {
  tasks: ['task', 'tasks'],
  images: ['image', 'images'],
  video_minutes: ['video minute', 'video minutes'],
};

/** "12 of 50 images left today", "3 of 10 team video minutes left this month". */
export function remainingText(status: LimitStatus): string {
  const unit = UNITS[status.measure][status.max === 1 ? 0 : 1];
  const team = status.scope === 'team' ? 'team ' : '';
  const when = status.period === 'day' ? 'today' : 'this month';
  return `${status.remaining} of ${status.max} ${team}${unit} left ${when}`;
}
