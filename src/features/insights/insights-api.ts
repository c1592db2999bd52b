// GET /__console/insights: the figures of a period, computed by the server's database.
import type { Insights } from '@/api/insights';

export type InsightsData = Insights;

class InsightsError extends Error {
  override name = 'InsightsError';
}

export async function fetchInsights(query: string, signal?: AbortSignal): Promise<InsightsData> {
  let response: Response;
  try {
    response = await fetch(`/__console/insights?${query}`, {
      signal,
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new InsightsError('The console could not be reached. Check the connection and try again.');
  }
  const body = (await response.json().catch(() => undefined)) as
    { code?: number; msg?: string; data?: InsightsData } | undefined;
  if (!response.ok || body?.code !== 0 || !body.data)
    throw new InsightsError(
      body?.msg ? `The console refused: ${body.msg}` : `The console answered HTTP ${response.status}.`,
    );
  return body.data;
}

/** "45 s", "3 min 20 s", "1 h 5 min". */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.round((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const percent = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(1)} %`;
}

/** Every bucket of the period (hour or day, UTC) with its counts, zeros where nothing was created. */
export function fillBuckets(data: InsightsData): {
  at: number[];
  byOutcome: Record<'succeeded' | 'failed' | 'running', number[]>;
  byKind: Map<string, number[]>;
} {
  const step = data.period.bucket === 'hour' ? 3600_000 : 24 * 3600_000;
  const start = Math.floor(Date.parse(data.period.from) / step) * step;
  const end = Date.parse(data.period.to);
  const at: number[] = [];
  for (let t = start; t < end && at.length < 2000; t += step) at.push(t);
  const index = new Map(at.map((t, i) => [t, i]));
  const zeros = () => at.map(() => 0);
  const byOutcome = { succeeded: zeros(), failed: zeros(), running: zeros() };
  const byKind = new Map<string, number[]>();
  for (const row of data.overTime) {
    const i = index.get(Date.parse(row.at));
    if (i === undefined) continue;
    byOutcome.succeeded[i]! += row.succeeded;
    byOutcome.failed[i]! += row.failed;
    byOutcome.running[i]! += row.running;
    if (!byKind.has(row.kind)) byKind.set(row.kind, zeros());
    byKind.get(row.kind)![i]! += row.succeeded + row.failed + row.running;
  }
  return { at, byOutcome, byKind };
}
