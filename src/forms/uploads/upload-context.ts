// One tracker per creation form, reached by its file controls through context: the form owns it
// (to wait for it on submit and to name the uploaded files), the rows only start and show uploads.
import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import type { UploadJob } from './upload-job';
import { UploadTracker } from './upload-tracker';

export const UploadsContext = createContext<UploadTracker | undefined>(undefined);

export function useUploadTracker(): UploadTracker {
  return useState(() => new UploadTracker())[0];
}

/** The tracker of the form around, or undefined where files are not offered. */
export const useUploads = () => useContext(UploadsContext);

const NONE: readonly UploadJob[] = [];

/** This slot's uploads; re-renders only when the tracker publishes. */
export function useSlotJobs(tracker: UploadTracker | undefined, slot: string): UploadJob[] {
  const jobs = useSyncExternalStore(tracker?.subscribe ?? noSubscribe, tracker?.jobs ?? (() => NONE));
  return jobs.filter((job) => job.slot === slot);
}

/** How many uploads the form must wait for. */
export function useUploadsBusy(tracker: UploadTracker | undefined): number {
  return useSyncExternalStore(tracker?.subscribe ?? noSubscribe, tracker?.busyCount ?? (() => 0));
}

const noSubscribe = () => () => undefined;
