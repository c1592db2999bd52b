// One card of the gallery: a request with its tasks ("By request"), or a single task.
import type { GalleryEntry } from './request-groups';
import { RequestCard } from './request-card';
import { TaskCard } from './task-card';

export function GalleryCard({ entry }: { entry: GalleryEntry }) {
  return entry.request ? <RequestCard request={entry.request} /> : <TaskCard record={entry.task} />;
}
