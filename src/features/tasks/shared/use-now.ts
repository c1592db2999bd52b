import { useEffect, useState } from 'react';
import { serverNow } from './server-clock';

/** The current time by the server's clock (./server-clock.ts), refreshed every `intervalMs` while `active` (for elapsed-time labels). */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(serverNow()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
