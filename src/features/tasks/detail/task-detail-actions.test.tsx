// @vitest-environment jsdom
// The detail screen's actions: "Copy as cURL" is the task's status request with the token kept as
// `$API_TOKEN`, and the download links only ever carry http(s) URLs.
import type { TaskType } from '@/api/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { statusCurl, statusSnippet, TaskActions } from './task-detail-actions';
import { describeTask } from '@/features/tasks/shared/task-view';

function record(
  kind: TaskType,
  id: string,
  result: Record<string, unknown> = {},
  status = 'SUCCEEDED',
): TaskRecord {
  return {
    id,
    kind,
    source: 'lookup',
    createdAt: Date.now(), // a fresh result: past 7 days it expires
    updatedAt: 1,
    status,
    result: { task_id: id, status, ...result },
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
});

describe('statusCurl', () => {
  it.each<[TaskType, string, string]>([
    ['image_to_video', 'i2v-123', '/v1/image_to_video/i2v-123'],
    ['image_generate', 'i2is-456', '/v1/image_generate/i2is-456'],
    ['video_translate', 'vt-789', '/v1/video_translate/vt-789'],
  ])('is a GET of the %s status path', (kind, id, path) => {
    expect(statusCurl(record(kind, id, {}, 'PROCESSING'))).toBe(
      `curl -X GET "$API_BASE_URL${path}" \\\n  -H "Authorization: Bearer $API_TOKEN"`,
    );
  });

  it('sends no body and keeps an odd id inside its path segment', () => {
    const curl = statusCurl(record('video_translate', 'vt-a/b?c'));
    expect(curl).toContain('"$API_BASE_URL/v1/video_translate/vt-a%2Fb%3Fc"');
    expect(curl).not.toMatch(/ -d | -X POST|Content-Type/);
  });

  it('never holds a real token, only the $API_TOKEN variable', () => {
    const token = 'sk-live-status-curl-secret-7f3a';
    vi.stubEnv('API_TOKEN', token);
    vi.stubEnv('VITE_API_TOKEN', token);
    for (const kind of ['image_to_video', 'image_generate', 'video_translate'] as const) {
      const curl = statusCurl(record(kind, `${kind}-1`));
      expect(curl).not.toContain(token);
      expect(curl.match(/Bearer \S+/g)).toEqual(['Bearer $API_TOKEN"']);
    }
  });
});

const EVIL = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(2)',
  ' javascript:alert(3)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=alert(4)>',
];

function renderActions(task: TaskRecord) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <TaskActions record={task} view={describeTask(task)} />
    </QueryClientProvider>,
  );
}

describe('Copy as Python and Copy as JavaScript', () => {
  it('copy the status query of the task, with the token as a variable', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const task = record('image_to_video', 'i2v-7/x', {}, 'PROCESSING');
    renderActions(task);
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Copy as Python' })));
    const python = await statusSnippet(task, 'python');
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(python));
    expect(python).toContain('os.environ["API_BASE_URL"] + "/v1/image_to_video/i2v-7%2Fx"');
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Copy as JavaScript' })));
    const javascript = await statusSnippet(task, 'javascript');
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(javascript));
    expect(javascript).toContain('fetch(process.env.API_BASE_URL + "/v1/image_to_video/i2v-7%2Fx"');
    expect(
      screen.getAllByRole('status').some((region) => region.textContent === 'Copied to the clipboard'),
    ).toBe(true);
    vi.unstubAllGlobals();
  });
});

function urlAttributes(container: HTMLElement) {
  return [...container.querySelectorAll('[href],[src],[poster],[srcset]')].flatMap((el) =>
    ['href', 'src', 'poster', 'srcset']
      .map((name) => el.getAttribute(name))
      .filter((v): v is string => v !== null),
  );
}

describe('download links of TaskActions', () => {
  it.each(EVIL)('never put %s into an href, src or poster', (evil) => {
    const tasks = [
      record('image_to_video', 'i2v-1', { video_url: evil, thumbnail_url: evil }),
      record('image_generate', 'i2is-1', { image_url: evil, thumbnail_url: evil }),
      record('video_translate', 'vt-1', { video_url: evil, caption_url: evil }),
    ];
    for (const task of tasks) {
      const { container, unmount } = renderActions(task);
      for (const value of urlAttributes(container)) {
        expect(value.trim().toLowerCase()).not.toMatch(/^(javascript|data):/);
      }
      for (const el of container.querySelectorAll('*')) {
        for (const attribute of el.attributes) {
          expect(attribute.value.trim().toLowerCase(), attribute.name).not.toMatch(/^(javascript|data):/);
        }
      }
      expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
      // The rest of the actions are still there.
      expect(screen.getByRole('button', { name: 'Copy as cURL' })).toBeInTheDocument();
      unmount();
    }
  });

  it('links http(s) results for download', () => {
    const { unmount } = renderActions(
      record('video_translate', 'vt-2', {
        video_url: 'https://cdn.test/out/Japanese-tour.mp4',
        caption_url: 'https://cdn.test/out/Japanese-tour.ass',
      }),
    );
    expect(screen.getByRole('link', { name: 'Download video' })).toHaveAttribute(
      'href',
      'https://cdn.test/out/Japanese-tour.mp4',
    );
    expect(screen.getByRole('link', { name: 'Download captions' })).toHaveAttribute(
      'href',
      'https://cdn.test/out/Japanese-tour.ass',
    );
    unmount();
    renderActions(record('image_generate', 'i2is-2', { image_url: 'https://cdn.test/out/a.png' }));
    expect(screen.getByRole('link', { name: 'Download image' })).toHaveAttribute(
      'href',
      'https://cdn.test/out/a.png',
    );
  });

  it('falls back to a safe thumbnail, never to an unsafe image link', () => {
    renderActions(
      record('image_generate', 'i2is-3', {
        image_url: 'javascript:alert(5)',
        thumbnail_url: 'https://cdn.test/t.png',
      }),
    );
    expect(screen.getByRole('link', { name: 'Download image' })).toHaveAttribute(
      'href',
      'https://cdn.test/t.png',
    );
  });

  it('offers no download for a result past its ~7 days (the link would only fail)', () => {
    const old = {
      ...record('video_translate', 'vt-old', {
        video_url: 'https://cdn.test/out/old.mp4',
        caption_url: 'https://cdn.test/out/old.ass',
      }),
      createdAt: Date.now() - 8 * 24 * 3600 * 1000,
    };
    renderActions(old);
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy task id' })).toBeInTheDocument();
  });
});
