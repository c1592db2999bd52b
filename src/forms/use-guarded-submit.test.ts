// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors';
import { useGuardedSubmit } from './use-guarded-submit';

const refused = new ApiError({
  kind: 'validation',
  httpStatus: 400,
  code: 100001,
  msg: 'prompt is required',
});

describe('a guarded submit’s failure', () => {
  it('goes to a field when `place` takes it, else to the banner', async () => {
    const onField = renderHook(() =>
      useGuardedSubmit(
        () => Promise.reject(refused),
        () => true,
      ),
    );
    await act(() => onField.result.current.submit({}));
    expect(onField.result.current.banner).toBeUndefined();
    const unplaced = renderHook(() =>
      useGuardedSubmit(
        () => Promise.reject(refused),
        () => false,
      ),
    );
    await act(() => unplaced.result.current.submit({}));
    expect(unplaced.result.current.banner).toBe(refused);
  });

  it('becomes the banner when placing it fails (its code could not load), and the form is free again', async () => {
    const { result } = renderHook(() =>
      useGuardedSubmit(
        () => Promise.reject(refused),
        () => Promise.reject(new Error('Failed to fetch dynamically imported module')),
      ),
    );
    await act(() => result.current.submit({}));
    expect(result.current.banner).toBe(refused);
    expect(result.current.pending).toBe(false);
  });
});
