import { lazy, Suspense, type ComponentProps, type FormEventHandler, type ReactNode } from 'react';
import { ErrorText, LazyPart } from '@/components/ui/core/lazy-part';
import type { ApiError } from '@/api/errors';
import type { TaskType } from '@/api/core/rules';
import type { CreatedTaskLink, ReuseParams } from './created-tasks-panel';
import { FormActions } from './form-actions';
import { isLimitRefusal, LimitRemaining, useMyLimits } from './limit-status';
import { submitOnModEnter } from './form-errors';
import { cardClass } from '@/components/ui/styles';
import { UploadsContext } from './uploads/upload-context';
import type { UploadTracker } from './uploads/upload-tracker';
import { useUploadWait } from './uploads/upload-wait';

// Shown only after a submission (a refusal, or the tasks it created): loaded then, not with the form.
const ErrorBanner = lazy(() => import('@/components/ui/banner').then((m) => ({ default: m.ErrorBanner })));
const LazyCreatedTasksPanel = lazy(() =>
  import('./created-tasks-panel').then((m) => ({ default: m.CreatedTasksPanel })),
);

const LazyRecentRequests = lazy(() =>
  import('@/features/tasks/requests/request-tiles').then((m) => ({ default: m.RecentRequests })),
);

/** Set once this browser has sent a request: until then there is nothing recent to load and show. */
export const SENT_KEY = 'media-console:sent-requests';

function hasSentRequests(): boolean {
  try {
    return localStorage.getItem(SENT_KEY) === '1';
  } catch {
    return false;
  }
}

/** This browser's recent requests of the form's kind, below its side column's newest result. */
function RecentRequests(props: ComponentProps<typeof LazyRecentRequests>) {
  // A first visit loads none of the history's code for it (the form's first screen stays light).
  if (!hasSentRequests() && !props.exclude?.length) return null;
  return (
    <Suspense fallback={null}>
      <LazyRecentRequests {...props} />
    </Suspense>
  );
}

/** The tasks a submission created, for a form's side column. */
function CreatedTasks(props: ComponentProps<typeof LazyCreatedTasksPanel>) {
  return (
    <Suspense fallback={null}>
      <LazyCreatedTasksPanel {...props} />
    </Suspense>
  );
}

/**
 * The frame the creation forms share: the form card (fields, the service's error banner, the
 * Reset/submit footer, Ctrl/⌘+Enter) and the side column (the tasks the last submission created,
 * the form's summary, this browser's recent requests of its kind).
 */
export function CreationFormLayout({
  titleId,
  title,
  onSubmit,
  banner,
  onDismissBanner,
  pending,
  submitLabel,
  onReset,
  created,
  summary,
  onReuse,
  onEngage,
  onApproach,
  uploads,
  kind,
  children,
}: {
  titleId: string;
  /** Read by screen readers only: the screen's heading is above the form. */
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  banner: ApiError | undefined;
  onDismissBanner: () => void;
  pending: boolean;
  submitLabel: string;
  onReset: () => void;
  /** The tasks the last submission created, with its request as cURL. */
  created: { tasks: readonly CreatedTaskLink[]; curl: string; note?: string } | undefined;
  /** The "What you will get" card. */
  summary: ReactNode;
  /** "Use this prompt" on a created or recent request (absent: not offered). */
  onReuse?: ReuseParams;
  /** The creator starts working with the form (first focus or press): load what validation needs. */
  onEngage?: () => void;
  /** The pointer comes over the form: load what a first click may show. */
  onApproach?: () => void;
  /** The form's uploads: its file controls use them, and a submission waits for them. */
  uploads?: UploadTracker;
  /** The kind it creates: its recent requests, and what is left of the spending limits for it. */
  kind: TaskType;
  children: ReactNode;
}) {
  const wait = useUploadWait(uploads, onSubmit);
  const limits = useMyLimits(kind, pending);
  // A spending limit's refusal belongs beside the submit button, not in the service's banner.
  const refusal = isLimitRefusal(banner) ? banner.msg : undefined;
  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <form
        noValidate
        aria-labelledby={titleId}
        onSubmit={wait.onSubmit}
        onKeyDown={submitOnModEnter}
        onFocus={onEngage}
        onPointerDown={onEngage}
        onPointerEnter={onApproach}
        className={`${cardClass} divide-y divide-zinc-200 dark:divide-zinc-800`}
      >
        <h2 id={titleId} className="sr-only">
          {title}
        </h2>
        <div className="space-y-6 p-4 sm:p-6">
          <UploadsContext value={uploads}>{children}</UploadsContext>
          {wait.note}
          {banner && !refusal && (
            <LazyPart failed={<ErrorText error={banner} />}>
              <ErrorBanner error={banner} onDismiss={onDismissBanner} />
            </LazyPart>
          )}
        </div>
        <FormActions
          pending={pending}
          submitLabel={submitLabel}
          pendingLabel="Sending…"
          onReset={onReset}
          note={<LimitRemaining limits={limits} />}
          refusal={refusal}
        />
      </form>
      <div className="space-y-4 lg:sticky lg:top-20">
        {created && <CreatedTasks kind={kind} {...created} onReuse={onReuse} />}
        {summary}
        <RecentRequests kind={kind} exclude={created?.tasks} onReuse={onReuse} />
      </div>
    </div>
  );
}
