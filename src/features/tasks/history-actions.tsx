// Export / import of the history, and the poller's settings (parallel checks, notifications).
import { useRef, useState } from 'react';
import { DISPLAY_NAME_MAX, readDisplayName, saveDisplayName } from '@/api/display-name';
import { useMyName } from '@/api/my-name';
import { Button } from '@/components/ui/button';
import {
  MAX_CONCURRENCY,
  notificationsWanted,
  saveConcurrency,
  saveNotificationsWanted,
  storedConcurrency,
} from './poll-settings';
import { pollSemaphore } from './poll-semaphore';

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const notifySupported = () => typeof Notification !== 'undefined';

function Settings() {
  const me = useMyName();
  const [concurrency, setConcurrency] = useState(storedConcurrency);
  const [notify, setNotify] = useState(
    () => notificationsWanted() && notifySupported() && Notification.permission === 'granted',
  );
  const [note, setNote] = useState('');

  async function toggleNotify(on: boolean) {
    if (on && notifySupported() && Notification.permission !== 'granted') {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setNote(
          'The browser blocked notifications for this site. Allow them in the site settings to use this.',
        );
        return;
      }
    }
    saveNotificationsWanted(on);
    setNotify(on);
    setNote(
      on ? 'You will get a notification when a task finishes while this tab is in the background.' : '',
    );
    window.dispatchEvent(new Event('media-console:settings'));
  }

  return (
    <div className="space-y-3 text-sm">
      {me.fromSession ? (
        // With the sign-in the session's name is the creator; the server ignores any other.
        <p>
          Your name: <span className="font-medium">{me.name}</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">From the sign-in page.</span>
        </p>
      ) : (
        <div className="space-y-1">
          <label htmlFor="display-name" className="block">
            Your name
          </label>
          <input
            id="display-name"
            defaultValue={readDisplayName()}
            maxLength={DISPLAY_NAME_MAX}
            autoComplete="name"
            aria-describedby="display-name-hint"
            // Saved as typed: the next task created here carries it.
            onChange={(event) => void saveDisplayName(event.target.value)}
            className="w-full rounded-lg border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
          <p id="display-name-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
            Recorded as the creator of the tasks you make, for the whole team.
          </p>
        </div>
      )}
      <div className="flex items-center justify-between gap-3">
        <label htmlFor="poll-concurrency">Status checks at once</label>
        <select
          id="poll-concurrency"
          value={concurrency}
          onChange={(event) => {
            const value = Number(event.target.value);
            setConcurrency(value);
            saveConcurrency(value);
            pollSemaphore.setLimit(value);
          }}
          className="rounded-lg border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
        >
          {Array.from({ length: MAX_CONCURRENCY }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          checked={notify}
          disabled={!notifySupported()}
          onChange={(event) => void toggleNotify(event.target.checked)}
          className="mt-0.5 size-4 accent-indigo-600"
        />
        <span>
          Notify me when a task finishes in the background
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            Keeps checking (every 30 s) while the tab is hidden.
          </span>
        </span>
      </label>
      <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        {note}
      </p>
    </div>
  );
}

export function HistoryActions() {
  const fileRef = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);

  async function onExport() {
    setBusy('export');
    try {
      // The file format's schema (zod) loads only when a file is written or read.
      const { exportHistory } = await import('./history-transfer');
      download(`task-history-${new Date().toISOString().slice(0, 10)}.json`, await exportHistory());
    } finally {
      setBusy(null);
    }
  }

  async function onImport(file: File) {
    setBusy('import');
    try {
      const { importHistory } = await import('./history-transfer');
      const outcome = await importHistory(await file.text());
      const rejected = outcome.rejected
        ? ` Skipped ${outcome.rejected} invalid entr${outcome.rejected === 1 ? 'y' : 'ies'} (${outcome.problems.join('; ')}).`
        : '';
      setMessage({
        tone: 'ok',
        text: `Imported: ${outcome.added} new, ${outcome.updated} updated, ${outcome.unchanged} unchanged.${rejected}`,
      });
    } catch (error) {
      setMessage({ tone: 'error', text: `Import failed: ${(error as Error).message}` });
    } finally {
      setBusy(null);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-2">
        <Button size="sm" onClick={() => void onExport()} pending={busy === 'export'}>
          Export
        </Button>
        <Button size="sm" onClick={() => fileRef.current?.click()} pending={busy === 'import'}>
          Import
        </Button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          aria-label="Import task history file"
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void onImport(file);
          }}
        />
        <details className="relative">
          <summary className="cursor-pointer list-none rounded-lg border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800">
            Settings
          </summary>
          <div className="absolute right-0 z-10 mt-2 w-72 rounded-xl border border-zinc-200 bg-white p-4 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
            <Settings />
          </div>
        </details>
      </div>
      <p
        role="status"
        className={`text-right text-xs ${message?.tone === 'error' ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}`}
      >
        {message?.text}
      </p>
    </div>
  );
}
