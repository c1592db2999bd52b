import { VideoTranslateForm } from './video-translate-form';

export function VideoTranslateScreen() {
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Translate video</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          Give the service a video link and the languages you need; each language becomes its own translation
          task that you can follow in Tasks. Your draft is kept in this browser until you reset it.
        </p>
      </header>
      <VideoTranslateForm />
    </div>
  );
}
