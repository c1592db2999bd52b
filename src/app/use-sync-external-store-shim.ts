// wouter imports the use-sync-external-store shim for React 17 and older; React 19 has the hook, so
// the build points the shim here (vite.config.ts) instead of shipping a polyfill nobody runs.
export { useSyncExternalStore } from 'react';
