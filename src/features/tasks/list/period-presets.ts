// The period filter's presets (Today, Yesterday, Last 7 days, Last 30 days), in this browser's time
// zone: loaded with the further filters, behind "Filters".
import { dayString } from './task-url-filters';

/**
 * The period presets, as days relative to today in this browser's time zone (both ends included):
 * Yesterday is yesterday 00:00 up to today 00:00.
 */
export const PERIOD_PRESETS = [
  { label: 'Today', first: 0, last: 0 },
  { label: 'Yesterday', first: -1, last: -1 },
  { label: 'Last 7 days', first: -6, last: 0 },
  { label: 'Last 30 days', first: -29, last: 0 },
] as const;

export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** A preset's days (YYYY-MM-DD) as of `now`. */
export function presetPeriod(preset: Pick<PeriodPreset, 'first' | 'last'>, now = new Date()) {
  return { from: dayString(now, preset.first), to: dayString(now, preset.last) };
}
