import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { useFollowing } from '@/features/tasks/history/following';
import { useRequestNotificationsWanted } from '@/features/tasks/notify/notify-wanted';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { AppRoutes } from './routes';

// Tasks created on any screen are followed from any screen. The poller (with the history store and
// TanStack Query) and the callback stream load only while this browser has tasks that may still
// change, or the Callbacks screen is open: a first visit loads neither.
const TaskPollingHost = lazy(() =>
  import('@/features/tasks/history/task-polling-host').then((m) => ({ default: m.TaskPollingHost })),
);

// Told when one's requests finish: loads only once notifications are wanted and allowed.
const RequestNotifierGate = lazy(() =>
  import('@/features/tasks/notify/request-notifier-gate').then((m) => ({ default: m.RequestNotifierGate })),
);

function RoutedContent() {
  const [location] = useLocation();
  return (
    <ErrorBoundary resetKey={location}>
      <AppRoutes />
    </ErrorBoundary>
  );
}

export function App() {
  const [location] = useLocation();
  const following = useFollowing();
  const notify = useRequestNotificationsWanted();
  return (
    <>
      {(following || location === '/callbacks') && <CallbackSubscriber />}
      {notify && (
        <Suspense fallback={null}>
          <RequestNotifierGate />
        </Suspense>
      )}
      {following && (
        <Suspense fallback={null}>
          <TaskPollingHost />
        </Suspense>
      )}
      <Layout>
        <RoutedContent />
      </Layout>
    </>
  );
}
