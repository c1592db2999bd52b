// What is left of the spending limits that apply to a creation form's kind ("1 of 1 image left
// today"), and the server's refusal of a creation past one, both beside the submit button. The
// server checks and counts (server/limits); this only shows GET /__console/limits.
import { useEffect, useState } from 'react';
import type { ApiError } from '@/api/errors';
import { LIMIT_REFUSAL_CODE, remainingText, type LimitMeasure, type LimitStatus } from '@/api/limits';
import type { TaskType } from '@/api/core/rules';
import { readMyLimits } from './limits-api';

/** The measures a creation of each kind spends. */
const MEASURES: Record<TaskType, readonly LimitMeasure[]> = {
  image_generate: ['tasks', 'images'],
  image_to_video: ['tasks', 'video_minutes'],
  video_translate: ['tasks', 'video_minutes'],
};

/** A 429 the console itself gave for a spending limit (LIMIT_REFUSAL_CODE; the service's 429 is its banner). */
export function isLimitRefusal(error: ApiError | undefined): error is ApiError {
  return Boolean(error && error.httpStatus === 429 && error.code === LIMIT_REFUSAL_CODE);
}

/** The limits that apply to me for `kind`, read again after every submission (`pending` ends). */
export function useMyLimits(kind: TaskType | undefined, pending: boolean): LimitStatus[] {
  const [limits, setLimits] = useState<LimitStatus[]>([]);
  useEffect(() => {
    if (!kind || pending) return;
    const controller = new AbortController();
    readMyLimits(controller.signal)
      .then((mine) => mine && setLimits(mine.filter((limit) => MEASURES[kind].includes(limit.measure))))
      .catch(() => undefined);
    return () => controller.abort();
  }, [kind, pending]);
  return limits;
}

/** "1 of 1 image left today · 9 of 10 tasks left today", or nothing when no limit applies. */
export function LimitRemaining({ limits }: { limits: LimitStatus[] }) {
  if (!limits.length) return null;
  const spent = limits.some((limit) => limit.remaining <= 0);
  return (
    <p
      id="limit-remaining"
      className={`text-xs ${spent ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-zinc-600 dark:text-zinc-400'}`}
    >
      {limits.map(remainingText).join(' · ')}
    </p>
  );
}
