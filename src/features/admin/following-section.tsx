// Admins, on the People screen: how the server's following of unfinished tasks goes (the figures
// /healthz gives, with the task the last error was about): `GET /__console/follow`, server/follow.
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { hintClass } from '@/components/ui/styles';
import { formatAgo, formatDuration } from '@/features/tasks/shared/format';
import { readFollowing, type FollowFigures } from './admin-api';
import { AdminSection, SectionError } from './admin-section';

const tasks = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'task' : 'tasks'}`;

export function FollowingSection({ now = Date.now }: { now?: () => number }) {
  const [figures, setFigures] = useState<FollowFigures>();
  const [error, setError] = useState('');
  useEffect(() => {
    readFollowing()
      .then(setFigures)
      .catch((e: Error) => setError(e.message));
  }, []);
  const at = now();
  return (
    <AdminSection name="following" title="Following tasks" spacing={2}>
      <SectionError message={error} />
      {figures && (
        <>
          <p className="text-sm">
            The server is asking the service about{' '}
            <span className="font-semibold">{tasks(figures.following)}</span>
            {figures.oldestCreatedAt &&
              `; the oldest has run for ${formatDuration(at - Date.parse(figures.oldestCreatedAt))}`}
            .{' '}
            {figures.ended > 0 && (
              <span className={hintClass}>
                {tasks(figures.ended)} no longer asked about (unknown to the service, or no status query
                here).
              </span>
            )}
          </p>
          {figures.brakedUntil && (
            <p className="text-sm text-amber-900 dark:text-amber-100">
              The service asked for a pause: no status request before{' '}
              {new Date(figures.brakedUntil).toLocaleTimeString()}.
            </p>
          )}
          <p className="text-sm">
            {figures.lastError ? (
              <>
                Last error from the service, {formatAgo(Date.parse(figures.lastError.at), at)}: HTTP{' '}
                {figures.lastError.httpStatus}
                {figures.lastError.code !== undefined && `, code ${figures.lastError.code}`}{' '}
                <q className="font-mono text-[13px]">{figures.lastError.msg}</q> for task{' '}
                <Link
                  href={`/tasks/${encodeURIComponent(figures.lastError.taskId)}`}
                  className="font-mono text-indigo-700 underline dark:text-indigo-300"
                >
                  {figures.lastError.taskId}
                </Link>
                .
              </>
            ) : (
              <span className={hintClass}>No error from the service so far.</span>
            )}
          </p>
        </>
      )}
    </AdminSection>
  );
}
