// First visit without a sign-in: one slim, dismissible strip asks the name the team will see on
// this browser's tasks. It sits in the page flow under the header (never over a form), is asked
// once (saved or "Not now"), and stays editable under Tasks → Settings → Your name. With a sign-in
// the session's name is the creator, so it never shows.
import { useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import {
  DISPLAY_NAME_MAX,
  markNameAsked,
  nameWasAsked,
  readDisplayName,
  saveDisplayName,
  subscribeDisplayName,
} from '@/api/display-name';

const needsAsking = () => !readDisplayName() && !nameWasAsked();

/** The production server marks the page when a sign-in names its users (server/app/prod-app.ts). */
const signInNamesUsers = () => document.querySelector('meta[name="console-sign-in"]') !== null;

export function NamePrompt() {
  const { data } = useConsoleInfo();
  const ask = useSyncExternalStore(subscribeDisplayName, needsAsking, () => false);
  const [name, setName] = useState('');
  const inputId = useId();
  const labelId = useId();
  // Shown from the first render (the page says whether a sign-in names the user), so it never
  // pushes the screen down when /__console/config arrives; the config still hides it if it says so.
  if (!ask || signInNamesUsers() || data?.auth || data?.user) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return;
    saveDisplayName(name);
    markNameAsked();
  }

  return (
    <section
      aria-labelledby={labelId}
      className="border-b border-indigo-100 bg-indigo-50/70 dark:border-indigo-900 dark:bg-indigo-950/40"
    >
      <form
        onSubmit={submit}
        className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 text-sm"
      >
        <span className="flex flex-wrap items-baseline gap-x-3">
          <label id={labelId} htmlFor={inputId} className="font-medium text-indigo-950 dark:text-indigo-100">
            Name for your tasks
          </label>
          <span className="text-xs text-indigo-900/80 dark:text-indigo-200/80">
            The team sees it on the tasks you create.
          </span>
        </span>
        <span className="flex w-full items-center gap-2 sm:w-auto">
          <input
            id={inputId}
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={DISPLAY_NAME_MAX}
            autoComplete="name"
            placeholder="e.g. Ada"
            className="min-w-0 flex-1 rounded-lg border border-zinc-300 bg-white px-2 py-1 sm:w-48 sm:flex-none dark:border-zinc-700 dark:bg-zinc-900"
          />
          <button
            type="submit"
            className="rounded-lg bg-indigo-600 px-2.5 py-1 font-medium whitespace-nowrap text-white hover:bg-indigo-700 dark:bg-indigo-500"
          >
            Save name
          </button>
          <button
            type="button"
            onClick={markNameAsked}
            className="rounded-lg px-2 py-1 font-medium whitespace-nowrap text-indigo-800 hover:bg-indigo-100 dark:text-indigo-200 dark:hover:bg-indigo-900"
          >
            Not now
          </button>
        </span>
      </form>
    </section>
  );
}
