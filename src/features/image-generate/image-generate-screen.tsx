import { lazy, Suspense } from 'react';
import { useAfterFirstPaint } from '@/components/ui/use-after-first-paint';
import { FormSkeleton } from '@/forms/form-skeleton';

// The screen is small and its page preloads it; the form itself (react-hook-form, its resolver and
// the form UI) is a separate chunk, which keeps the first route's JavaScript under its budget. It is
// requested right after the heading and the form's skeleton have painted, so the first paint does
// not share the network with it (see useAfterFirstPaint).
let formRequested = false;
const ImageGenerateForm = lazy(() => {
  formRequested = true;
  return import('./form/image-generate-form').then((m) => ({ default: m.ImageGenerateForm }));
});

export function ImageGenerateScreen() {
  // Coming back to the screen, the code is there: the form renders at once, with no skeleton frame.
  const painted = useAfterFirstPaint(formRequested);
  const skeleton = <FormSkeleton label="Loading the image form…" />;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Create image</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          Describe an image, optionally add reference images, and the service renders it. Each image becomes
          its own task that you can follow in Tasks. Your draft is kept in this browser until you reset it.
        </p>
      </header>
      {painted ? (
        <Suspense fallback={skeleton}>
          <ImageGenerateForm />
        </Suspense>
      ) : (
        skeleton
      )}
    </div>
  );
}
