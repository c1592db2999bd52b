import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { useFollowing } from '@/features/tasks/history/following';
import { useRequestNotificationsWanted } from '@/features/tasks/notify/notify-wanted';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { AppRoutes } from './routes';

// Tasks created on any screen show their progress on any screen: the server follows every task, and
// this browser reads the record's changes into its own tasks (the history store) while it has tasks
// that may still change; that part loads only then. The callback stream is the Callbacks screen's.
const RecordFollowHost = lazy(() =>
  import('@/features/tasks/history/record-follow-host').then((m) => ({ default: m.RecordFollowHost })),
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
      {location === '/callbacks' && <CallbackSubscriber />}
      {notify && (
        <Suspense fallback={null}>
          <RequestNotifierGate />
        </Suspense>
      )}
      {following && (
        <Suspense fallback={null}>
          <RecordFollowHost />
        </Suspense>
      )}
      <Layout>
        <RoutedContent />
      </Layout>
    </>
  );
}
