// A board as a presentation (/boards/<id>?present): its finished results in the board's order, one at
// a time, with the request's presentation view (../requests/presentation.tsx); live like the page.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useLocation } from 'wouter';
import { Presentation } from '@/features/tasks/requests/presentation';
import { slidesOf } from '@/features/tasks/requests/request-present-screen';
import { useNow } from '@/features/tasks/shared/use-now';
import { boardKey, fetchBoard, useBoardsFeed } from './boards-api';

export function BoardPresentation({ boardId }: { boardId: string }) {
  useBoardsFeed();
  const query = useQuery({
    queryKey: boardKey(boardId),
    queryFn: ({ signal }) => fetchBoard(boardId, signal),
  });
  const [, navigate] = useLocation();
  const now = useNow(true, 3_600_000);
  const data = query.data ?? undefined;
  const slides = useMemo(() => slidesOf(data?.items ?? [], now), [data, now]);
  const exit = useCallback(() => navigate(`/boards/${encodeURIComponent(boardId)}`), [navigate, boardId]);
  return <Presentation name={data?.board.name ?? 'Board'} slides={slides} onExit={exit} />;
}
