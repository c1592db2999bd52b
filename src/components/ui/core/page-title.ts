import { useEffect } from 'react';

/** The tab's title while the screen is shown, "<what> · Media Console"; the one before comes back after. */
export function usePageTitle(what: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${what} · Media Console`;
    return () => {
      document.title = previous;
    };
  }, [what]);
}
