// A request's own actions, on its page: every result as one zip named after it, Use this prompt
// (the form of its kind, filled with what it sent: src/forms/prefill.ts, loaded on the press), and Re-run…, which
// asks first with what it will spend (../rerun/rerun-confirm.tsx, loaded on the press) and makes
// the same request again, linked to this one as "More like this" does.
import { lazy, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useMutation } from '@tanstack/react-query';
import { useMyName } from '@/api/my-name';
import { needsRole } from '@/api/roles';
import { Button } from '@/components/ui/core/button';
import { ErrorText, LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { useFocusBackOnCancel } from '@/features/tasks/rerun/focus-after-cancel';
import type { TeamRequest } from '@/features/tasks/team/team-tasks';

const confirmModule = () => import('@/features/tasks/rerun/rerun-confirm');
const RerunConfirm = lazy(() => confirmModule().then((m) => ({ default: m.RerunConfirm })));
const repeatModule = () => import('@/features/tasks/boards/more-like-this');

const ACTION =
  'inline-flex items-center gap-1.5 rounded-lg border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';

/** Whose request it is, when it is not mine: its re-run is a new request in my name. */
function otherCreator(request: TeamRequest, me: { id?: string; name?: string }): string | undefined {
  const creatorId = request.tasks[0]?.creatorId;
  if (creatorId) return creatorId === me.id ? undefined : (request.creator ?? 'someone else');
  return request.creator && request.creator !== me.name ? request.creator : undefined;
}

export function RequestActions({
  request,
  params,
  children,
}: {
  request: TeamRequest;
  /** What it sent (its first task's copy, else the request's). */
  params: Record<string, unknown>;
  /** The page's other actions on the request (Star, Add to board), first in the same row. */
  children?: ReactNode;
}) {
  const [, navigate] = useLocation();
  const me = useMyName();
  const viewer = me.role === 'viewer';
  const [asking, setAsking] = useState(false);
  const { trigger, cancelled } = useFocusBackOnCancel();
  const rerun = useMutation({
    mutationFn: async () =>
      (await repeatModule()).makeMoreLikeThis({ kind: request.kind, requestId: request.id, params }),
    onSuccess: (id) => navigate(`/requests/${encodeURIComponent(id)}`),
  });
  const done = request.tasks.some((task) => task.status === 'SUCCEEDED');
  const canSend = Object.keys(params).length > 0;
  const reuseLabel = typeof params.prompt === 'string' ? 'Use this prompt' : 'Use these settings';
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {children}
        {done && (
          <a href={`/__console/requests/${encodeURIComponent(request.id)}/zip`} download className={ACTION}>
            Download all
          </a>
        )}
        {canSend && !viewer && (
          <Button
            size="sm"
            onClick={() =>
              void import('@/forms/prefill').then(({ fillForm }) => navigate(fillForm(request.kind, params)))
            }
            title="Opens the form filled with this request, in place of what it held"
          >
            {reuseLabel}
          </Button>
        )}
        {canSend && !asking && (
          <Button
            ref={trigger}
            size="sm"
            onClick={() => setAsking(true)}
            onPointerEnter={() => void confirmModule()}
            onFocus={() => void confirmModule()}
            disabled={viewer}
            aria-describedby={viewer ? 'request-rerun-viewer-reason' : undefined}
          >
            Re-run…
          </Button>
        )}
      </div>
      {asking && (
        <LazyPart failed={<PartFailed what="The re-run's question" />}>
          <RerunConfirm
            kind={request.kind}
            params={params}
            what="request"
            owner={otherCreator(request, me)}
            pending={rerun.isPending}
            onRerun={() => rerun.mutate()}
            onCancel={() => {
              rerun.reset();
              cancelled();
              setAsking(false);
            }}
          />
        </LazyPart>
      )}
      {viewer && canSend && (
        <p id="request-rerun-viewer-reason" className="text-xs text-zinc-600 dark:text-zinc-400">
          {needsRole('creator', 're-run requests')}
        </p>
      )}
      {rerun.error && <ErrorText error={rerun.error} />}
    </div>
  );
}
