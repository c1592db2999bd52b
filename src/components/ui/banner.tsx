import { useEffect, useRef, type ReactNode } from 'react';
import type { ApiError, ApiErrorKind } from '@/api/errors';

const TITLES: Record<ApiErrorKind, string> = {
  validation: 'The service did not accept the request',
  bounds: 'A value is out of range',
  reference_image: 'A reference image could not be downloaded',
  task_creation: 'The task could not be created',
  auth: 'The access token was refused',
  rate_limit: 'Too many requests',
  not_found: 'Not found',
  unavailable: 'Not available on this backend',
  too_large: 'The request is too large',
  server: 'The service had a problem',
  network: 'The service could not be reached',
  malformed: 'Unexpected answer from the service',
  business: 'The service refused the request',
};

function errorTitle(error: ApiError) {
  return TITLES[error.kind];
}

/** `Code 530003 · HTTP 200`, or whatever part of it exists. */
function errorCodeLine(error: ApiError) {
  const parts = [
    error.code !== undefined && `Code ${error.code}`,
    error.httpStatus > 0 && `HTTP ${error.httpStatus}`,
  ];
  return parts.filter(Boolean).join(' · ') || 'No response';
}

/**
 * A request-level failure: what happened, the service's own words (verbatim, so it can be quoted to
 * support), and what to do next.
 */
export function ErrorBanner({
  error,
  onDismiss,
  children,
}: {
  error: ApiError;
  onDismiss?: () => void;
  children?: ReactNode;
}) {
  // Scrolled into sight when it shows, clear of the sticky header and of a form's sticky action bar
  // (its scroll margins are taller than either), so its last line is never hidden beneath them.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  return (
    <div
      ref={box}
      role="alert"
      className="scroll-mt-24 scroll-mb-28 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/60 dark:text-red-50"
    >
      <div className="flex items-start gap-3">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className="mt-0.5 size-5 shrink-0 text-red-600 dark:text-red-400"
        >
          <path
            fillRule="evenodd"
            d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495ZM10 5a.75.75 0 0 1 .75.75v3.5a.75.75 0 0 1-1.5 0v-3.5A.75.75 0 0 1 10 5Zm0 9a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
            clipRule="evenodd"
          />
        </svg>
        <div className="min-w-0 flex-1 space-y-1">
          <p className="font-semibold">
            {errorTitle(error)}
            <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 font-mono text-xs font-medium text-red-800 dark:bg-red-900 dark:text-red-100">
              {errorCodeLine(error)}
            </span>
          </p>
          {error.msg && (
            <p className="break-words">
              <span className="text-red-800 dark:text-red-200">The service said: </span>
              <q className="font-mono text-[13px]">{error.msg}</q>
            </p>
          )}
          <p>
            <span className="font-medium">What to do: </span>
            {error.explanation}
          </p>
          {children}
        </div>
        {onDismiss && (
          <button
            type="button"
            onClick={onDismiss}
            className="-m-1 rounded-md p-1 text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-900"
          >
            <span className="sr-only">Dismiss</span>
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        )}
      </div>
    </div>
  );
}
