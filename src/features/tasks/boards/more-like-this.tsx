// "More like this": the same request again with the same parameters (N more: as many as
// it asked for), recorded on the server as a new request linked to the first
// (requests.parent_request_id, through the x-console-parent-request header), then its page opens.
// It asks first with what it will spend, as Re-run does (../rerun/rerun-confirm.tsx); the question
// and the endpoints load when the button is pressed.
import { lazy, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { PARENT_REQUEST_HEADER } from '@/api/boards';
import type { ImageGenerateRequest, VideoTranslateRequest } from '@/api/schemas';
import type { ImageToVideoRequest } from '@/api/image-to-video-request';
import type { TaskType } from '@/api/core/rules';
import { Button } from '@/components/ui/core/button';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { useFocusBackOnCancel } from '@/features/tasks/rerun/focus-after-cancel';
import { useCanChangeBoards } from './add-to-board';

const confirmModule = () => import('@/features/tasks/rerun/rerun-confirm');
const RerunConfirm = lazy(() => confirmModule().then((m) => ({ default: m.RerunConfirm })));

/** What a "More like this" needs: the request's kind, its id and what it sent. */
export interface Repeatable {
  kind: TaskType;
  requestId?: string;
  params?: unknown;
}

const paramsOf = (source: Repeatable): Record<string, unknown> =>
  source.params && typeof source.params === 'object' && !Array.isArray(source.params)
    ? (source.params as Record<string, unknown>)
    : {};

/** This browser follows what it made (its status is polled); a history that cannot be written changes nothing. */
const follow = (recorded: Promise<unknown>) => recorded.catch(() => undefined);

/** Sends the request again; resolves to the new request's id (`req-` and its first task id). */
export async function makeMoreLikeThis(source: Repeatable): Promise<string> {
  const endpoints = await import('@/api/endpoints');
  const history = await import('@/features/tasks/history/history');
  const headers = source.requestId ? { [PARENT_REQUEST_HEADER]: source.requestId } : undefined;
  const params = paramsOf(source);
  let firstId: string | undefined;
  if (source.kind === 'image_generate') {
    const body = params as unknown as ImageGenerateRequest;
    const { task_ids } = await endpoints.createImageGeneration(body, undefined, headers);
    await follow(
      history.recordCreatedTasks(
        'image_generate',
        body,
        task_ids.map((task_id) => ({ task_id })),
      ),
    );
    firstId = task_ids[0];
  } else if (source.kind === 'video_translate') {
    const body = params as unknown as VideoTranslateRequest;
    const created = await endpoints.createVideoTranslation(body, undefined, headers);
    await follow(history.recordCreatedTasks('video_translate', body, created));
    firstId = created[0]?.task_id;
  } else {
    const body = params as unknown as ImageToVideoRequest;
    const { task_ids } = await endpoints.createImageToVideo(body, undefined, headers);
    await follow(
      history.recordCreatedTasks(
        'image_to_video',
        body,
        task_ids.map((task_id) => ({ task_id })),
      ),
    );
    firstId = task_ids[0];
  }
  if (!firstId) throw new Error('The service answered without a task id.');
  return `req-${firstId}`;
}

/** How many results the request asks for: its count, or its languages. */
function countOf(source: Repeatable): number {
  const params = paramsOf(source);
  if (source.kind === 'video_translate')
    return Array.isArray(params.target_languages) ? params.target_languages.length : 1;
  return typeof params.generate_count === 'number' ? params.generate_count : 1;
}

export function MoreLikeThisButton({
  source,
  size = 'sm',
  compact = false,
}: {
  source: Repeatable;
  size?: 'sm' | 'md';
  /** A small text button (a board's item). */
  compact?: boolean;
}) {
  const [, navigate] = useLocation();
  const can = useCanChangeBoards();
  const [asking, setAsking] = useState(false);
  const { trigger, cancelled } = useFocusBackOnCancel();
  const more = useMutation({
    mutationFn: () => makeMoreLikeThis(source),
    onSuccess: (requestId) => navigate(`/requests/${encodeURIComponent(requestId)}`),
  });
  if (!can || !Object.keys(paramsOf(source)).length) return null;
  const n = countOf(source);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {asking ? (
        <LazyPart failed={<PartFailed what="More like this's question" />}>
          <RerunConfirm
            kind={source.kind}
            params={paramsOf(source)}
            action="More like this"
            confirmLabel={`Make ${n} more`}
            pending={more.isPending}
            onRerun={() => more.mutate()}
            onCancel={() => {
              more.reset();
              cancelled();
              setAsking(false);
            }}
          />
        </LazyPart>
      ) : (
        <Button
          ref={trigger}
          size={size}
          variant={compact ? 'ghost' : 'secondary'}
          className={compact ? '!px-2 !py-1 text-xs' : ''}
          onClick={() => setAsking(true)}
          onPointerEnter={() => void confirmModule()}
          onFocus={() => void confirmModule()}
          title="The same request again, with the same parameters: asks first with what it will spend"
        >
          More like this ({n} more)…
        </Button>
      )}
      {more.isError && (
        <span role="alert" className="text-sm text-red-700 dark:text-red-300">
          {more.error.message}
        </span>
      )}
    </span>
  );
}
