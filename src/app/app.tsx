import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { CallbackSubscriber } from '@/features/callbacks/callback-subscriber';
import { ErrorBoundary } from './error-boundary';
import { Layout } from './layout';
import { createQueryClient } from './query-client';
import { AppRoutes } from './routes';

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
      <Layout>
        <RoutedContent />
      </Layout>
    </QueryClientProvider>
  );
}
