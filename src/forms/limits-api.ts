// GET /__console/limits: the spending limits that apply to me and what is left of each
// (server/limits). A plain fetch rather than src/api/console-fetch.ts: every creation form loads this,
// and a form's route has no bytes to spare.
import type { LimitStatus } from '@/api/limits';

/** My limits, or undefined when the console did not answer them (the forms then show none). */
export const readMyLimits = (signal: AbortSignal): Promise<LimitStatus[] | undefined> =>
  fetch('/__console/limits', { headers: { accept: 'application/json' }, signal })
    .then((response) => (response.ok ? (response.json() as Promise<{ limits?: unknown }>) : undefined))
    .then((body) => (Array.isArray(body?.limits) ? (body.limits as LimitStatus[]) : undefined));
