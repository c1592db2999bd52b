import { useRef, useState, type FormEvent } from 'react';
import type { ApiError } from '@/api/errors';

/**
 * Sends at most one request at a time, keeps what it returned (the created tasks) and sorts its
 * failure: `place` puts it on a field and returns (or resolves to) true, otherwise it becomes the banner. Enter and
 * Ctrl+Enter reach the form without the (disabled) button, and twice in a row before React
 * re-renders, hence the ref and not state. A plain hook, not a TanStack mutation: creating tasks
 * needs no cache, and the forms load without TanStack Query.
 */
export function useGuardedSubmit<T, R>(
  send: (body: T) => Promise<R>,
  place: (error: ApiError) => boolean | Promise<boolean>,
) {
  const inFlight = useRef(false);
  const [banner, setBanner] = useState<ApiError>();
  const [result, setResult] = useState<R>();
  const [pending, setPending] = useState(false);

  async function submit(body: T) {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    setBanner(undefined);
    try {
      setResult(await send(body));
    } catch (caught) {
      // The client (and its ApiError) is loaded by then; only the failure path needs it here.
      const { ApiError, isApiError } = await import('@/api/errors');
      const error = isApiError(caught)
        ? caught
        : new ApiError({ kind: 'malformed', msg: String(caught), cause: caught });
      // Placing it may load code of its own (a field's message parser): if that fails, the banner.
      const placed = await Promise.resolve()
        .then(() => place(error))
        .catch(() => false);
      if (!placed) setBanner(error);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  function reset() {
    setBanner(undefined);
    setResult(undefined);
  }

  return { submit, banner, clearBanner: () => setBanner(undefined), result, pending, reset };
}

/**
 * What the creation form's layout takes of a submission: the form's submit handler (react-hook-form's
 * `handleSubmit(onValid)`), the banner, and whether a request or the validation is under way.
 */
export function submitProps(
  submitValid: (event: FormEvent<HTMLFormElement>) => Promise<void>,
  guarded: { banner: ApiError | undefined; clearBanner: () => void; pending: boolean },
  isSubmitting: boolean,
) {
  return {
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submitValid(event),
    banner: guarded.banner,
    onDismissBanner: guarded.clearBanner,
    pending: guarded.pending || isSubmitting,
  };
}
