// The figures a seeded history should give, computed in plain TypeScript (test-only): what the
// database's aggregates are held to.
import type { InsightsFilter } from './insights';
import { round1, type SeededTask } from './seeded-history';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

function inFilter(tasks: SeededTask[], filter: InsightsFilter): SeededTask[] {
  return tasks.filter(
    (task) =>
      task.createdAt >= filter.from.getTime() &&
      task.createdAt < filter.to.getTime() &&
      (!filter.kind || task.kind === filter.kind) &&
      (!filter.creator ||
        (task.creatorId ? task.currentName === filter.creator : task.creator === filter.creator)),
  );
}

const seconds = (task: SeededTask) => (task.finishedAt! - task.createdAt) / 1000;

/**
 * The rollup's percentile, computed here independently: the task at PostgreSQL's percentile_cont
 * lower rank, reported as the middle (geometric) of its quarter-octave bucket: [0, 1) s -> 0.5,
 * [2^((k-1)/4), 2^(k/4)) -> 2^((k-1)/4 + 1/8), 2^20 s and more -> 2^20. Bucket edges are 2^(k/4)
 * rounded to three decimals, as the migration spells them.
 */
function bucketedPercentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.floor(fraction * (sorted.length - 1))]!;
  const edges = Array.from({ length: 81 }, (_, k) => Number((2 ** (k / 4)).toFixed(3)));
  const bucket = edges.filter((edge) => value >= edge).length;
  if (bucket === 0) return 0.5;
  if (bucket === 81) return 2 ** 20;
  return 2 ** ((bucket - 1) / 4 + 1 / 8);
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const phases = (tasks: SeededTask[]) => ({
  succeeded: tasks.filter((t) => t.phase === 'succeeded').length,
  failed: tasks.filter((t) => t.phase === 'failed').length,
  running: tasks.filter((t) => t.phase === 'running').length,
});

export function expectedInsights(all: SeededTask[], filter: InsightsFilter) {
  const tasks = inFilter(all, filter);
  const bucketMs = filter.to.getTime() - filter.from.getTime() <= 3 * DAY ? HOUR : DAY;
  const counts = phases(tasks);
  const overTime = [...countBy(tasks, (t) => `${Math.floor(t.createdAt / bucketMs) * bucketMs} ${t.kind}`)]
    .map(([key, group]) => {
      const [at, kind] = key.split(' ');
      return { at: new Date(Number(at)).toISOString().replace('.000Z', 'Z'), kind: kind!, ...phases(group) };
    })
    .sort((a, b) => a.at.localeCompare(b.at) || a.kind.localeCompare(b.kind));
  const durations = [
    ...countBy(
      tasks.filter((t) => t.phase !== 'running'),
      (t) => t.kind,
    ),
  ]
    .map(([kind, group]) => ({
      kind,
      finished: group.length,
      p50Seconds: round1(bucketedPercentile(group.map(seconds), 0.5)),
      p95Seconds: round1(bucketedPercentile(group.map(seconds), 0.95)),
    }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
  const failures = [
    ...countBy(
      tasks.filter((t) => t.phase === 'failed'),
      (t) => JSON.stringify([t.kind, t.code, t.reason]),
    ),
  ].map(([key, group]) => {
    const [kind, code, reason] = JSON.parse(key) as [string, string | null, string];
    return { kind, code, reason, count: group.length };
  });
  // A person is their user id (shown by their current name), else the name recorded on the task.
  const people = [
    ...countBy(tasks, (t) => JSON.stringify([t.creatorId ?? null, t.creatorId ? null : t.creator])),
  ].map(([key, group]) => ({
    creatorId: (JSON.parse(key) as [string | null])[0],
    creator: group[0]!.creatorId ? group[0]!.currentName! : group[0]!.creator,
    tasks: group.length,
    succeeded: phases(group).succeeded,
    failed: phases(group).failed,
    images: group.filter((t) => t.phase === 'succeeded' && t.kind === 'image_generate').length,
    videoMinutes: round1(
      group
        .filter((t) => t.phase === 'succeeded' && t.kind === 'image_to_video')
        .reduce((sum, t) => sum + t.duration!, 0) / 60,
    ),
    languages: [...new Set(group.flatMap((t) => (t.language ? [t.language] : [])))].sort(),
  }));
  const busiestHours = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    tasks: tasks.filter((t) => new Date(t.createdAt).getUTCHours() === hour).length,
  }));
  const ended = counts.succeeded + counts.failed;
  return {
    totals: { created: tasks.length, ...counts, successRate: ended ? counts.succeeded / ended : null },
    overTime,
    durations,
    failures,
    people,
    busiestHours,
  };
}

/** The CSV's data rows for the period: day x kind x person. */
export function expectedCsvRows(all: SeededTask[], filter: InsightsFilter): string[][] {
  const tasks = inFilter(all, filter);
  const day = (t: SeededTask) => new Date(t.createdAt).toISOString().slice(0, 10);
  const shownName = (t: SeededTask) => (t.creatorId ? t.currentName! : (t.creator ?? ''));
  return [...countBy(tasks, (t) => JSON.stringify([day(t), t.kind, shownName(t), t.creatorId ?? '']))]
    .map(([key, group]) => {
      const [d, kind, creator, id] = JSON.parse(key) as string[];
      const finished = group.filter((t) => t.phase !== 'running').map(seconds);
      const text = (value: number | null) => (value === null ? '' : String(round1(value)));
      const { succeeded, failed, running } = phases(group);
      return {
        id: id!,
        row: [
          d!,
          kind!,
          creator!,
          String(group.length),
          String(succeeded),
          String(failed),
          String(running),
          text(bucketedPercentile(finished, 0.5)),
          text(bucketedPercentile(finished, 0.95)),
        ],
      };
    })
    .sort(
      (a, b) =>
        a.row[0]!.localeCompare(b.row[0]!) ||
        a.row[1]!.localeCompare(b.row[1]!) ||
        a.row[2]!.localeCompare(b.row[2]!) ||
        a.id.localeCompare(b.id),
    )
    .map(({ row }) => row);
}
