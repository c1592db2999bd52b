// Whether this backend has the upload endpoint. Learnt from the first upload it answers with a 404
// without a business code, and remembered for the browser session, so the file controls of every
// form then say so instead of offering what cannot work. URLs work either way.
import { useSyncExternalStore } from 'react';

const KEY = 'media-console:uploads-unavailable';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

let unavailable = typeof sessionStorage === 'undefined' ? false : read();

export function markUploadsUnavailable(): void {
  unavailable = true;
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Private mode: remembered for this page only.
  }
  for (const listener of listeners) listener();
}

/** For tests: forget what was learnt. */
export function resetUploadsAvailability(): void {
  unavailable = false;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
  for (const listener of listeners) listener();
}

export function useUploadsUnavailable(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unavailable,
    () => false,
  );
}
