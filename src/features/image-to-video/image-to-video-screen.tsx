import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { FormSkeleton } from '@/forms/form-skeleton';
import { IMAGE_TO_VIDEO_PATH, readAnimateSource } from './link/animate-link';

// Its own chunk, loaded when the screen is first visited: nothing of it is on the first screen.
const ImageToVideoForm = lazy(() =>
  import('./image-to-video-form').then((m) => ({ default: m.ImageToVideoForm })),
);

export function ImageToVideoScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  // Read once: Animate's parameters seed the form, then leave the address so a reload keeps the draft.
  const [source] = useState(() => readAnimateSource(search));
  useEffect(() => {
    if (search) navigate(IMAGE_TO_VIDEO_PATH, { replace: true });
  }, [search, navigate]);
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Image to video</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          Bring an image to life: start from a frame (and optionally end on another), or let the model follow
          reference images. Each video becomes its own task that you can follow in Tasks. Your draft is kept
          in this browser until you reset it.
        </p>
      </header>
      <Suspense fallback={<FormSkeleton label="Loading the image to video form…" />}>
        <ImageToVideoForm source={source} />
      </Suspense>
    </div>
  );
}
