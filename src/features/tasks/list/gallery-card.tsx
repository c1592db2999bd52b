// One card of the gallery: a request with its tasks ("By request"), or a single task.
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';
import { RequestCard } from '@/features/tasks/requests/request-card';
import { Selectable } from './selection';
import { TaskCard } from './task-card';

/** With its checkbox for the bulk actions (./selection.tsx). */
export function GalleryCard({ entry }: { entry: GalleryEntry }) {
  return (
    <Selectable entry={entry}>
      {entry.request ? <RequestCard request={entry.request} /> : <TaskCard record={entry.task} />}
    </Selectable>
  );
}
