// The Tasks screen's Settings menu: who you are signed in as, and notifications. Loaded when the menu is first pointed at, focused or opened (history-actions.tsx).
import { useState } from 'react';
import { useMyName } from '@/api/my-name';
import { notificationsWanted, saveNotificationsWanted } from '@/features/tasks/history/notify-settings';

const notifySupported = () => typeof Notification !== 'undefined';

export function Settings() {
  const me = useMyName();
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
    // This tab's shell hears it too (src/features/tasks/notify/notify-wanted.ts): the request notifier.
    window.dispatchEvent(new StorageEvent('storage'));
    setNotify(on);
    setNote(
      on ? 'You will get a notification when a task finishes while this tab is in the background.' : '',
    );
    window.dispatchEvent(new Event('media-console:settings'));
  }

  return (
    <div className="space-y-3 text-sm">
      {me.name && (
        // The creator of what you make is who you signed in as (the local admin on your own machine).
        <p>
          Signed in as <span className="font-medium">{me.name}</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            Recorded as the creator of the tasks you make.
          </span>
        </p>
      )}
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
