import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { useFollowing } from '@/features/tasks/history/following';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { AppRoutes } from './routes';

// Tasks created on any screen show their progress on any screen: the server follows every task, and
// this browser reads the record's changes into its own tasks (the history store) while it has tasks
// that may still change. That part and the callback stream load only then, or on the Callbacks
// screen: a first visit loads neither.
const RecordFollowHost = lazy(() =>
  import('@/features/tasks/history/record-follow-host').then((m) => ({ default: m.RecordFollowHost })),
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
