// When tasks finish while the tab is hidden: a count in the page title until the user comes back,
// and a browser notification if they opted in.
import { onTaskFinished } from './history';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { notificationsWanted } from './notify-settings';

let finishedWhileHidden = 0;
let baseTitle = '';
let started = false;

function render() {
  document.title = finishedWhileHidden ? `(${finishedWhileHidden}) finished · ${baseTitle}` : baseTitle;
}

/** Starts once per page; safe to call from every screen that polls. */
export function startFinishNotifier() {
  if (started || typeof document === 'undefined') return;
  started = true;
  baseTitle = document.title;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && finishedWhileHidden) {
      finishedWhileHidden = 0;
      render();
    }
  });
  onTaskFinished((record) => {
    if (document.visibilityState !== 'hidden') return;
    if (!finishedWhileHidden) baseTitle = document.title;
    finishedWhileHidden++;
    render();
    // The person's own requests are told once per request, from the server's stream, by
    // src/features/tasks/notify/request-finish-notifier.ts; this tells the tasks only followed here.
    if (
      record.source !== 'created' &&
      notificationsWanted() &&
      typeof Notification !== 'undefined' &&
      Notification.permission === 'granted'
    ) {
      const what = `${TASK_TYPE_LABELS[record.kind]} task ${record.status === 'SUCCEEDED' ? 'succeeded' : 'failed'}`;
      const notification = new Notification(what, { body: record.id, tag: record.id });
      notification.onclick = () => {
        window.focus();
        notification.close();
      };
    }
  });
}
