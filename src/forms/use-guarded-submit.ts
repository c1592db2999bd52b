import { useRef, useState } from 'react';
import { ApiError, isApiError } from '@/api/errors';

/**
 * Sends at most one request at a time and sorts its failure: `place` puts it on a field and
 * returns true, otherwise it becomes the banner. Enter and Ctrl+Enter reach the form without the
 * (disabled) button, and twice in a row before React re-renders, hence the ref and not state.
 */
export function useGuardedSubmit<T>(
  send: (body: T) => Promise<unknown>,
  place: (error: ApiError) => boolean,
) {
  const inFlight = useRef(false);
  const [banner, setBanner] = useState<ApiError>();

  async function submit(body: T) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBanner(undefined);
    try {
      await send(body);
    } catch (caught) {
      const error = isApiError(caught)
        ? caught
        : new ApiError({ kind: 'malformed', msg: String(caught), cause: caught });
      if (!place(error)) setBanner(error);
    } finally {
      inFlight.current = false;
    }
  }

  return { submit, banner, clearBanner: () => setBanner(undefined) };
}
