import type { FormEventHandler, ReactNode } from 'react';
import type { ApiError } from '@/api/errors';
import { ErrorBanner } from '@/components/ui/banner';
import { FormActions } from './form-actions';
import { submitOnModEnter } from './form-errors';
import { cardClass } from '@/components/ui/styles';

/**
 * The frame both creation forms share: the form card (fields, the service's error banner, the
 * Reset/submit footer, Ctrl/⌘+Enter) and the side column (created tasks, summary).
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
  aside,
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
  aside: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <form
        noValidate
        aria-labelledby={titleId}
        onSubmit={onSubmit}
        onKeyDown={submitOnModEnter}
        className={`${cardClass} divide-y divide-zinc-200 dark:divide-zinc-800`}
      >
        <h2 id={titleId} className="sr-only">
          {title}
        </h2>
        <div className="space-y-6 p-4 sm:p-6">
          {children}
          {banner && <ErrorBanner error={banner} onDismiss={onDismissBanner} />}
        </div>
        <FormActions pending={pending} submitLabel={submitLabel} pendingLabel="Sending…" onReset={onReset} />
      </form>
      <div className="space-y-4 lg:sticky lg:top-20">{aside}</div>
    </div>
  );
}
