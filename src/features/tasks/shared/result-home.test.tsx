// @vitest-environment jsdom
// Where a result lives, as a card and the media say it: kept in the team's storage (shown from
// there, even past the service's 7 days), or on the service with the days it has left.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { animateTarget } from './animate-link';
import { parseCopies } from './result-copies';
import { DetailMedia } from '@/features/tasks/detail/detail-media';
import { TaskCard } from '@/features/tasks/list/task-card';
import { describeTask } from './task-view';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 24 * 3600 * 1000;
const SERVICE = 'https://media.example.com/v.mp4';

function record(partial: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: 'i2v-home',
    kind: 'image_to_video',
    source: 'created',
    status: 'SUCCEEDED',
    createdAt: NOW - 2 * DAY,
    finishedAt: NOW - 2 * DAY,
    updatedAt: NOW,
    result: { task_id: 'i2v-home', status: 'SUCCEEDED', video_url: SERVICE },
    ...partial,
  };
}
const kept = parseCopies({ kept: { video: '/__console/results/i2v-home/video/0' }, lost: [], pending: [] });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('where a result lives', () => {
  it('says how long the service keeps a result not copied yet', () => {
    render(<TaskCard record={record()} />);
    expect(screen.getByText('On the service, expires in 5 days')).toBeInTheDocument();
    expect(screen.queryByText('Kept')).not.toBeInTheDocument();
  });

  it('says Kept, and plays the kept copy from this origin, even past the 7 days', () => {
    const old = record({ copies: kept, createdAt: NOW - 30 * DAY, finishedAt: NOW - 30 * DAY });
    render(<TaskCard record={old} />);
    expect(screen.getByText('Kept')).toBeInTheDocument();
    expect(screen.queryByText('Result expired')).not.toBeInTheDocument();
    expect(describeTask(old).video.url).toBe(`${location.origin}/__console/results/i2v-home/video/0`);
  });

  it('says a result that could not be copied before its link expired', () => {
    const lost = parseCopies({ kept: {}, lost: ['video'], pending: [] });
    render(
      <TaskCard record={record({ copies: lost, createdAt: NOW - 9 * DAY, finishedAt: NOW - 9 * DAY })} />,
    );
    expect(screen.getByText('Result expired')).toBeInTheDocument();
    expect(screen.getByText(/could not be copied into the team’s storage/)).toBeInTheDocument();
  });

  it('says plainly that the team’s retention removed the copy, on the card and the task page', () => {
    const removed = parseCopies({
      kept: {},
      lost: [],
      pending: [],
      removed: { video: { days: 30, at: NOW - DAY } },
    });
    const old = record({ copies: removed, createdAt: NOW - 31 * DAY, finishedAt: NOW - 31 * DAY });
    render(<TaskCard record={old} />);
    expect(screen.getByText('Removed after 30 days (team’s retention)')).toBeInTheDocument();
    expect(
      screen.getByText(/The team keeps results for 30 days; this copy was removed on/),
    ).toBeInTheDocument();
    expect(screen.queryByText('Result expired')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    cleanup();
    render(<DetailMedia record={old} view={describeTask(old)} />);
    expect(screen.getByText('Removed after 30 days (team’s retention)')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
  });

  it('says an admin removed the copy', () => {
    const removed = parseCopies({ kept: {}, removed: { video: { at: NOW - DAY } } });
    render(
      <TaskCard record={record({ copies: removed, createdAt: NOW - 9 * DAY, finishedAt: NOW - 9 * DAY })} />,
    );
    expect(screen.getByText('Removed by an admin')).toBeInTheDocument();
  });

  it("takes only the console's own result paths from the server", () => {
    expect(
      parseCopies({
        kept: { video: 'https://evil.example/x.mp4', image: '/__console/results/a/image/0', caption: 5 },
        lost: ['thumbnail', 'other'],
      }),
    ).toEqual({ kept: { image: '/__console/results/a/image/0' }, lost: ['thumbnail'], pending: [] });
    expect(parseCopies({ removed: { video: { days: 'x', at: -1 }, other: { days: 3 } } })?.removed).toEqual({
      video: {},
    });
    expect(parseCopies('nope')).toBeUndefined();
  });

  it("animates from the service's link, which the service can reach, not the kept copy", () => {
    const image = record({
      id: 'i2is-home',
      kind: 'image_generate',
      result: { status: 'SUCCEEDED', image_url: 'https://media.example.com/i.png' },
      copies: parseCopies({ kept: { image: '/__console/results/i2is-home/image/0' } }),
    });
    const href = animateTarget(image, describeTask(image));
    expect(decodeURIComponent(href ?? '')).toContain('https://media.example.com/i.png');
    expect(describeTask(image).image.url).toBe(`${location.origin}/__console/results/i2is-home/image/0`);
  });
});
