// /requests/<id>/present: a request's finished results as a presentation (./presentation.tsx),
// from the team's record (kept copies when there are), live like the request page.
import { useCallback, useMemo } from 'react';
import { useLocation } from 'wouter';
import { isResultKept } from '@/features/tasks/shared/result-copies';
import { isResultExpired } from '@/features/tasks/shared/result-expiry';
import { viewOf } from '@/features/tasks/shared/task-view';
import { useNow } from '@/features/tasks/shared/use-now';
import type { TeamTask } from '@/features/tasks/team/team-tasks';
import { useTeamFeed } from '@/features/tasks/team/use-team-feed';
import { Presentation, type Slide } from './presentation';
import { useRequest } from './use-request';

/** The slides of a request: each finished task whose result can still be shown, in order. */
export function slidesOf(tasks: TeamTask[], now: number): Slide[] {
  return tasks.flatMap((task): Slide[] => {
    const view = viewOf(task);
    if (view.tone !== 'succeeded' || (!isResultKept(task) && isResultExpired(task, now))) return [];
    const title = view.title ?? view.prompt ?? view.name ?? task.id;
    const detail =
      [view.language, task.creator && `by ${task.creator}`].filter(Boolean).join(' · ') || undefined;
    if (task.kind === 'image_generate')
      return view.image.url ? [{ id: task.id, title, detail, image: view.image.url }] : [];
    return view.video.url
      ? [{ id: task.id, title, detail, video: view.video.url, poster: view.thumbnail.url || undefined }]
      : [];
  });
}

/** Inside the request screen's QueryProvider (request-screen.tsx). */
export function RequestPresentContent({ requestId }: { requestId: string }) {
  const request = useRequest(requestId);
  useTeamFeed(undefined);
  const [, navigate] = useLocation();
  const data = request.data ?? undefined;
  const now = useNow(true, 3_600_000);
  const slides = useMemo(() => slidesOf(data?.tasks ?? [], now), [data, now]);
  const exit = useCallback(
    () => navigate(`/requests/${encodeURIComponent(requestId)}`),
    [navigate, requestId],
  );
  return <Presentation name={data?.title ?? `Request ${requestId}`} slides={slides} onExit={exit} />;
}
