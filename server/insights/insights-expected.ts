// The figures a seeded history should give, computed in plain TypeScript (test-only): what the
// database's aggregates are held to.
import type { InsightsFilter } from './insights';
import { percentileCont, round1, type SeededTask } from './seeded-history';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export function inFilter(tasks: SeededTask[], filter: InsightsFilter): SeededTask[] {
  return tasks.filter(
    (task) =>
      task.createdAt >= filter.from.getTime() &&
      task.createdAt < filter.to.getTime() &&
      (!filter.kind || task.kind === filter.kind) &&
      (!filter.creator || task.creator === filter.creator),
  );
}

const seconds = (task: SeededTask) => (task.finishedAt! - task.createdAt) / 1000;

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
      p50Seconds: round1(percentileCont(group.map(seconds), 0.5)),
      p95Seconds: round1(percentileCont(group.map(seconds), 0.95)),
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
  const people = [...countBy(tasks, (t) => JSON.stringify(t.creator))].map(([key, group]) => ({
    creator: JSON.parse(key) as string | null,
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
  return [...countBy(tasks, (t) => JSON.stringify([day(t), t.kind, t.creator ?? '']))]
    .map(([key, group]) => {
      const [d, kind, creator] = JSON.parse(key) as string[];
      const finished = group.filter((t) => t.phase !== 'running').map(seconds);
      const text = (value: number | null) => (value === null ? '' : String(round1(value)));
      const { succeeded, failed, running } = phases(group);
      return [
        d!,
        kind!,
        creator!,
        String(group.length),
        String(succeeded),
        String(failed),
        String(running),
        text(percentileCont(finished, 0.5)),
        text(percentileCont(finished, 0.95)),
      ];
    })
    .sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!) || a[2]!.localeCompare(b[2]!));
}
