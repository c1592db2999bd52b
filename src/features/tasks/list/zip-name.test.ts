import { describe, expect, it } from 'vitest';
import { ZIP_NAME_MAX } from '@/api/bulk-rules';
import { periodOf } from './task-url-filters';
import { presetPeriod, PERIOD_PRESETS } from './period-presets';
import { viewZipName } from './zip-name';

const now = new Date(2026, 10, 28, 9, 30);
const preset = (label: string) => PERIOD_PRESETS.find((one) => one.label === label)!;

describe('the name of a zip of the view', () => {
  it("names the tab and the download's day when there is no period", () => {
    expect(viewZipName({ tab: 'failed' }, now)).toBe('Failed tasks, 2026-11-28');
    expect(viewZipName({ tab: 'all' }, now)).toBe('Tasks, 2026-11-28');
  });

  it('names the period by its days, the last one before the exclusive end', () => {
    const yesterday = periodOf(presetPeriod(preset('Yesterday'), now));
    expect(viewZipName({ tab: 'failed', ...yesterday }, now)).toBe('Failed tasks, 2026-11-27');
    const week = periodOf(presetPeriod(preset('Last 7 days'), now));
    expect(viewZipName({ tab: 'succeeded', ...week }, now)).toBe('Succeeded tasks, 2026-11-22 to 2026-11-28');
    expect(viewZipName({ tab: 'all', from: new Date(2026, 10, 1).getTime() }, now)).toBe(
      'Tasks, from 2026-11-01',
    );
    expect(viewZipName({ tab: 'all', to: new Date(2026, 10, 2).getTime() }, now)).toBe(
      'Tasks, to 2026-11-01',
    );
  });

  it('names the kind, the creator, starred, the failure and the search', () => {
    expect(
      viewZipName(
        {
          tab: 'failed',
          kind: 'image_generate',
          creator: 'Maya Okafor',
          starred: 'only',
          errorReason: 'Timed out',
          errorCode: '530003',
          q: 'cat',
        },
        now,
      ),
    ).toBe(
      'Failed tasks, Image generation, Maya Okafor, starred, Timed out, code 530003, matching cat, 2026-11-28',
    );
  });

  it(`is at most ${ZIP_NAME_MAX} characters, the server's limit`, () => {
    expect(viewZipName({ tab: 'all', q: 'x'.repeat(ZIP_NAME_MAX) }, now)).toHaveLength(ZIP_NAME_MAX);
    const justFits = 'x'.repeat(ZIP_NAME_MAX - 'Tasks, matching , 2026-11-28'.length);
    expect(viewZipName({ tab: 'all', q: justFits }, now)).toBe(`Tasks, matching ${justFits}, 2026-11-28`);
  });
});
