// After Animate the video's prompt starts empty and focused: a video's prompt says what moves, and
// the image's own prompt (its scene) is usually the wrong text for it. So the form asks for the
// motion, and offers the image's prompt one click away for those who want to start from it. Loaded
// only after Animate, with what it reads of the form.
import { useWatch, type Control } from 'react-hook-form';
import type { VideoFormValues } from '@/features/image-to-video/video-form-model';

export function MotionAsk({
  control,
  suggestion,
  onUse,
}: {
  control: Control<VideoFormValues>;
  /** The image's prompt, when it had one. */
  suggestion?: string;
  /** Puts a prompt in the field (as "Use this prompt" does). */
  onUse: (params: { prompt: string }) => void;
}) {
  const prompt = useWatch({ control, name: 'prompt' });
  // Asked while the prompt is empty; offered while it is not the image's prompt.
  if (prompt && (!suggestion || prompt === suggestion)) return null;
  return (
    <div className="-mt-3 space-y-2 rounded-lg border border-indigo-200 bg-indigo-50/70 px-3 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
      <p className="font-medium text-zinc-900 dark:text-zinc-100">
        What should move in this image? The image already sets the scene: describe the motion and the camera.
      </p>
      {suggestion && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <p className="min-w-0 flex-1 text-zinc-700 dark:text-zinc-300">
            The image&apos;s prompt: <q className="break-words">{suggestion}</q>
          </p>
          <button
            type="button"
            // Focus stays in the prompt: leaving it would show its "required" line, which moves this
            // button between the press and the release, and the click would land on nothing.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onUse({ prompt: suggestion })}
            className="min-h-8 shrink-0 rounded-md border border-indigo-300 bg-white px-2.5 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-100 dark:border-indigo-700 dark:bg-zinc-900 dark:text-indigo-200 dark:hover:bg-indigo-900"
          >
            Use the image&apos;s prompt
          </button>
        </div>
      )}
    </div>
  );
}
