// A part of a screen whose code loads later (a menu, a banner, the poller). If that code cannot
// load (offline, or a deploy removed the old files), the part shows `failed` and the rest of the
// screen carries on: without this the screen's own error boundary would replace all of it, for
// something the person may never have asked for (a prefetch on hover).
import { Component, Suspense, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** While the code loads. */
  loading?: ReactNode;
  /** When it could not load. */
  failed?: ReactNode;
}

class PartBoundary extends Component<{ children: ReactNode; failed: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.failed : this.props.children;
  }
}

export function LazyPart({ children, loading = null, failed = null }: Props) {
  return (
    <PartBoundary failed={failed}>
      <Suspense fallback={loading}>{children}</Suspense>
    </PartBoundary>
  );
}

/** What a part that could not load says in its place. */
export function PartFailed({ what }: { what: string }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {what} could not load. Reload the page to try again.
    </p>
  );
}

/** An error's own message, for when the banner that shows it could not load. */
export function ErrorText({ error }: { error: { message: string } }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {error.message}
    </p>
  );
}
