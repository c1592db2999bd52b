// wouter imports the use-sync-external-store shim for React 17; React 18 and later have the hook, so
// the build points the shim here (vite.config.ts) instead of shipping a polyfill nobody runs.
export { useSyncExternalStore } from 'react';
