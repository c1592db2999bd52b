import { lazy, Suspense } from 'react';
import { FormSkeleton } from '@/forms/form-skeleton';

// The screen is on the first route and ships in the main chunk; the form itself (react-hook-form,
// its resolver and the form UI, ~28 KB gzip) is a separate chunk requested as soon as this module
// runs, which keeps the first screen's JavaScript under its 110 KB budget. The Translate video form
// shares that chunk's dependencies.
const formModule = () => import('./image-generate-form');
const ImageGenerateForm = lazy(() => formModule().then((m) => ({ default: m.ImageGenerateForm })));

export function ImageGenerateScreen() {
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Create image</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          Describe an image, optionally add reference images, and the service renders it. Each image becomes
          its own task that you can follow in Tasks. Your draft is kept in this browser until you reset it.
        </p>
      </header>
      <Suspense fallback={<FormSkeleton label="Loading the image form…" />}>
        <ImageGenerateForm />
      </Suspense>
    </div>
  );
}
