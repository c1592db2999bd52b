// Whether a CSS media query matches, kept current (a phone turned, a mouse plugged into a tablet).
import { useCallback, useSyncExternalStore } from 'react';

/** A device whose main pointer is a finger: nothing to drag files from, no hover. */
export const TOUCH_QUERY = '(pointer: coarse), (hover: none)';

function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener?.('change', onChange);
      return () => list?.removeEventListener?.('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia?.(query).matches ?? false);
}

/** On a touch device the file controls say "choose", not "drop or paste". */
export const useTouchDevice = () => useMediaQuery(TOUCH_QUERY);
