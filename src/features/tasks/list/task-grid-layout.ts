// What the plain grid (./task-grid.tsx) and the virtualized one (./virtual-task-grid.tsx) share:
// their props and their columns, so a list that grows from one to the other keeps its layout.
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';

export interface TaskGridProps {
  /** A card each: a task, or a request with its tasks ("By request", ./request-groups.ts). */
  entries: readonly GalleryEntry[];
  labelledBy?: string;
  /** How many the whole list holds when only the first pages are loaded (for aria-setsize). */
  total?: number;
  /** Called when the last rows come into view: the next page loads before the user gets there. */
  onEndReached?: () => void;
}

export const GRID_GAP = 16;

/** Columns for a list this wide; the plain grid's container queries use the same breakpoints. */
export function columnsFor(width: number) {
  if (width >= 900) return 3;
  if (width >= 560) return 2;
  return 1;
}
