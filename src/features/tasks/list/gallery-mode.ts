// The gallery's grouping ("By request" or "By task"): the URL's `by` when it has one (a link keeps
// the view), else this browser's last choice (localStorage), else by request.
import type { GalleryMode } from '@/features/tasks/requests/request-groups';

const GALLERY_MODE_KEY = 'media-console:tasks-by';

function storedGalleryMode(): GalleryMode | undefined {
  try {
    const value = localStorage.getItem(GALLERY_MODE_KEY);
    return value === 'task' || value === 'request' ? value : undefined;
  } catch {
    return undefined; // storage blocked: the default
  }
}

export function storeGalleryMode(mode: GalleryMode) {
  try {
    localStorage.setItem(GALLERY_MODE_KEY, mode);
  } catch {
    // storage blocked: the URL still holds the choice
  }
}

export const galleryModeOf = (fromUrl: GalleryMode | undefined): GalleryMode =>
  fromUrl ?? storedGalleryMode() ?? 'request';

const MODES: { mode: GalleryMode; label: string }[] = [
  { mode: 'request', label: 'By request' },
  { mode: 'task', label: 'By task' },
];
export { MODES as GALLERY_MODES };
