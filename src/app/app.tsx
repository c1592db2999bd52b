import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { createQueryClient } from './query-client';
import { AppRoutes } from './routes';

// Tasks created on any screen are followed from any screen; the poller (and the history store it
// reads) loads after the first render so it stays out of the first screen's bundle.
const TaskPollingHost = lazy(() =>
  import('@/features/tasks/task-polling-host').then((m) => ({ default: m.TaskPollingHost })),
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
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <CallbackSubscriber />
      <Suspense fallback={null}>
        <TaskPollingHost />
      </Suspense>
      <Layout>
        <RoutedContent />
      </Layout>
    </QueryClientProvider>
  );
}
