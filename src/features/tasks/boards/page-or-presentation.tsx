// A board's or a request's page, or its presentation view (`/present`, loaded only when asked for),
// each inside the screen's query client.
import { Suspense, type ReactNode } from 'react';
import { QueryProvider } from '@/api/query/query-client';

export function PageOrPresentation({
  present,
  page,
  presentation,
}: {
  present: boolean;
  page: ReactNode;
  /** A lazy component: nothing shows until it has loaded, so the page never flashes first. */
  presentation: ReactNode;
}) {
  return (
    <QueryProvider>{present ? <Suspense fallback={null}>{presentation}</Suspense> : page}</QueryProvider>
  );
}
