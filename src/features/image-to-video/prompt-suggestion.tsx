// After Animate the video's prompt starts empty: a video's prompt says what moves, and the image's
// own prompt (the scene) is usually the wrong text for it. It is offered here, one click away.

export function PromptSuggestion({ suggestion, onUse }: { suggestion: string; onUse: () => void }) {
  return (
    <div className="-mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-indigo-200 bg-indigo-50/70 px-3 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
      <p className="min-w-0 flex-1 text-zinc-700 dark:text-zinc-300">
        <span className="font-medium text-zinc-900 dark:text-zinc-100">The image&apos;s prompt: </span>
        <q className="break-words">{suggestion}</q>
      </p>
      <button
        type="button"
        onClick={onUse}
        className="min-h-8 shrink-0 rounded-md border border-indigo-300 bg-white px-2.5 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-100 dark:border-indigo-700 dark:bg-zinc-900 dark:text-indigo-200 dark:hover:bg-indigo-900"
      >
        Use the image&apos;s prompt
      </button>
    </div>
  );
}
