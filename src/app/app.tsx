import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { useFollowing } from '@/features/tasks/history/following';
import { RequestNotifierGate } from '@/features/tasks/notify/request-notifier-gate';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { AppRoutes } from './routes';

// Tasks created on any screen are followed from any screen. The poller (with the history store and
// TanStack Query) and the callback stream load only while this browser has tasks that may still
// change, or the Callbacks screen is open: a first visit loads neither.
const TaskPollingHost = lazy(() =>
  import('@/features/tasks/history/task-polling-host').then((m) => ({ default: m.TaskPollingHost })),
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
  return (
    <>
      {(following || location === '/callbacks') && <CallbackSubscriber />}
      <RequestNotifierGate />
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
