// Bench section: status polling against the built-in emulator on a virtual clock. For each kind of
// task: status requests per task beside the fewest the schedule needs for the task's duration, and
// requests after a terminal status (must be 0). Then 1,000 tasks that never finish: the most status
// requests in flight at once (the cap) and the request rate.
// Usage: npx tsx scripts/bench-polling.ts
import type { TaskType } from '../src/api/schemas';
import 'fake-indexeddb/auto';
import { environmentManager, QueryClient, QueryObserver, timeoutManager } from '@tanstack/react-query';
import { pathToFileURL } from 'node:url';
import { createEmulator } from '../server/emulator/app';
import { jitterFor, PHASES } from '../server/emulator/tasks';
import { isTerminalStatus } from '../src/api/status';
import { peekTask, recordCreatedTasks } from '../src/features/tasks/history/history';
import { minimumPolls } from '../src/api/core/follow-schedule';
import { DEFAULT_CONCURRENCY } from '../src/features/tasks/polling/poll-settings';
import { taskStatusQuery } from '../src/features/tasks/polling/task-polling';
import { printRows, type BenchRow } from './bench-size';
import { VirtualClock } from './bench-virtual-clock';

const LATENCY_MS = 150;

export async function benchPolling(): Promise<BenchRow[]> {
  const realNow = Date.now;
  const realFetch = globalThis.fetch;
  const clock = new VirtualClock(realNow());
  Date.now = () => clock.now;
  timeoutManager.setTimeoutProvider(clock.provider);
  environmentManager.setIsServer(() => false);
  const emulator = createEmulator({ timeScale: 1, now: () => clock.now, log: () => {} });
  const client = new QueryClient();

  const requests: { id: string; afterTerminal: boolean }[] = [];
  let inFlight = 0;
  let peak = 0;
  globalThis.fetch = async (input, init) => {
    const url = new URL(String(input), 'http://bench.local');
    const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    requests.push({ id, afterTerminal: isTerminalStatus(peekTask(id)?.status) });
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      await clock.sleep(LATENCY_MS);
      return await emulator.app.fetch(new Request(url, init));
    } finally {
      inFlight--;
    }
  };

  async function poll(kind: TaskType, ids: string[], runMs: number, untilDone: boolean) {
    await recordCreatedTasks(
      kind,
      {},
      ids.map((task_id) => ({ task_id })),
    );
    const stops = ids.map((id) => new QueryObserver(client, taskStatusQuery(kind, id)).subscribe(() => {}));
    const done = () => ids.every((id) => isTerminalStatus(peekTask(id)?.status));
    await clock.run(runMs, untilDone ? done : undefined);
    // Keep the observers mounted a while longer: nothing may be sent after a terminal status.
    if (untilDone) await clock.run(15 * 60_000);
    stops.forEach((stop) => stop());
    return done();
  }

  const rows: BenchRow[] = [];
  const scenarios: { label: string; kind: TaskType; count: number; timeScale: number }[] = [
    { label: 'image generation (~8 s)', kind: 'image_generate', count: 20, timeScale: 1 },
    { label: 'image-to-video (~23 s)', kind: 'image_to_video', count: 20, timeScale: 1 },
    { label: 'image-to-video (~4 min)', kind: 'image_to_video', count: 20, timeScale: 10 },
    { label: 'translation (~30 min)', kind: 'video_translate', count: 20, timeScale: 100 },
  ];
  try {
    for (const scenario of scenarios) {
      const start = clock.now;
      const ids = Array.from({ length: scenario.count }, () =>
        emulator.seedTask({ kind: scenario.kind, createdAt: start, timeScale: scenario.timeScale }),
      );
      const before = requests.length;
      const finished = await poll(scenario.kind, ids, 6 * 3600_000, true);
      const mine = requests.slice(before);
      const phaseMs = PHASES[scenario.kind].reduce((sum, phase) => sum + phase.ms, 0);
      // The schedule's own ticks for the task's true duration, as if requests took no time.
      const minimum =
        ids.reduce((sum, id) => sum + minimumPolls(phaseMs * scenario.timeScale * jitterFor(id)), 0) /
        ids.length;
      const perTask = mine.length / ids.length;
      const after = mine.filter((r) => r.afterTerminal).length;
      rows.push(
        {
          figure: `Status requests per task, ${scenario.label}`,
          value: `${perTask.toFixed(1)} / ${minimum.toFixed(1)} min`,
          target: '≤ minimum + 1',
          ok: finished && perTask <= minimum + 1,
        },
        {
          figure: `Requests after a terminal status, ${scenario.label}`,
          value: String(after),
          target: '0',
          ok: after === 0,
        },
      );
    }

    // 1,000 tasks that never finish: the cap holds and the rate stays modest.
    peak = 0;
    const start = clock.now;
    const stuck = Array.from({ length: 1000 }, () =>
      emulator.seedTask({
        kind: 'image_to_video',
        createdAt: start,
        outcome: { type: 'stuck', status: 'QUEUED' },
      }),
    );
    const before = requests.length;
    const windowMs = 2 * 60_000;
    await poll('image_to_video', stuck, windowMs, false);
    const sent = requests.length - before;
    const perSecond = sent / (windowMs / 1000);
    const ceiling = (DEFAULT_CONCURRENCY * 1000) / LATENCY_MS;
    rows.push(
      {
        figure: 'Most status requests in flight, 1,000 running tasks',
        value: String(peak),
        target: `≤ ${DEFAULT_CONCURRENCY} (setting)`,
        ok: peak <= DEFAULT_CONCURRENCY,
      },
      {
        figure: 'Status requests per second, 1,000 running tasks, first 2 min',
        value: perSecond.toFixed(1),
        target: `≤ ${ceiling.toFixed(1)} (cap ÷ latency)`,
        ok: perSecond <= ceiling * 1.01,
      },
      {
        figure: 'Each of the 1,000 tasks checked every',
        value: `${(1000 / perSecond).toFixed(0)} s`,
        target: 'report',
        ok: true,
      },
    );
  } finally {
    client.clear();
    await emulator.close();
    globalThis.fetch = realFetch;
    Date.now = realNow;
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows('Status polling on the emulator (virtual clock, 150 ms latency)', await benchPolling());
  process.exit(0);
}
