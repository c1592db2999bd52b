// Where the rollups can answer a period (migrations 0012 and 0026): its whole UTC days from the daily
// rollup, the whole hours of its partial first and last day from the hourly one, and only its
// partial first and last hour from the tasks themselves.

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A period cut where the rollups can answer it: whole UTC days (`days`, from the daily rollup), the
 * whole hours of the partial days at its ends (`hours`, from the hourly rollup) and the partial
 * hours at its very ends (`edges`, read from the tasks: at most two hours' worth).
 */
export interface PeriodCut {
  days: [number, number] | null;
  hours: [number, number][];
  edges: [number, number][];
}

export function cutPeriod(from: number, to: number): PeriodCut {
  const up = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;
  const down = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
  const spans = (list: [number, number][]) => list.filter(([a, b]) => a < b);
  const hourFrom = up(from, HOUR_MS);
  const hourTo = down(to, HOUR_MS);
  if (hourFrom >= hourTo) return { days: null, hours: [], edges: spans([[from, to]]) };
  const edges = spans([
    [from, hourFrom],
    [hourTo, to],
  ]);
  const dayFrom = up(from, DAY_MS);
  const dayTo = down(to, DAY_MS);
  if (dayFrom >= dayTo) return { days: null, hours: [[hourFrom, hourTo]], edges };
  return {
    days: [dayFrom, dayTo],
    hours: spans([
      [hourFrom, dayFrom],
      [dayTo, hourTo],
    ]),
    edges,
  };
}
