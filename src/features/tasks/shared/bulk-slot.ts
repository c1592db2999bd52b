// What the Tasks screen's selection slot (./selection.tsx) hands the bulk actions (./bulk-bar.tsx).
import type { TeamQuery, TeamTask } from '@/features/tasks/team/team-tasks';

/** What I hid from my view (server/tasks/bulk.ts). */
export const HIDDEN_KEY = ['tasks', 'hidden'] as const;

export interface SlotProps {
  query: TeamQuery;
  selected: ReadonlySet<string>;
  setSelected: (ids: Iterable<string>) => void;
  /** The tasks the screen has loaded, by id (what a re-run or a link needs is there for them). */
  loaded: ReadonlyMap<string, TeamTask>;
  hiddenCount: number;
  showHidden: boolean;
  onShowHidden: (show: boolean) => void;
}
