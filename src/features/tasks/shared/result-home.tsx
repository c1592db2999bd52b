// Where a succeeded task's result lives, on its card and its page: "Kept" (in the team's storage,
// served by the console for good) or "On the service, expires in N days" (the service's link, about
// 7 days from the finish). An expired result says so in its media (ResultExpired).
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { isResultKept } from './result-copies';
import { daysLeft, isResultExpired } from './result-expiry';
import { useNow } from './use-now';

export function ResultHome({ record }: { record: TaskRecord }) {
  const now = useNow(record.status === 'SUCCEEDED', 3_600_000);
  if (record.status !== 'SUCCEEDED') return null;
  if (isResultKept(record))
    return (
      <span
        className="inline-flex items-center gap-1 text-xs font-medium text-emerald-800 dark:text-emerald-300"
        title="A copy is kept in the team's storage: it does not expire with the service's link"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-3.5">
          <path
            fillRule="evenodd"
            d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
            clipRule="evenodd"
          />
        </svg>
        Kept
      </span>
    );
  if (isResultExpired(record, now)) return null;
  const days = daysLeft(record, now);
  return (
    <span className="text-xs text-amber-800 dark:text-amber-300">
      On the service, expires in {days} {days === 1 ? 'day' : 'days'}
    </span>
  );
}
