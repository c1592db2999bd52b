// At most MAX_PLAYERS <video> elements are mounted in the gallery at once: a card shows its poster
// until the user presses play, and starting one more player returns the oldest card to its poster.
// Keeps memory and decoder use flat however many video tasks are scrolled past.
import { useCallback, useSyncExternalStore } from 'react';

export const MAX_PLAYERS = 3;

let active: string[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function claimPlayer(id: string) {
  active = [...active.filter((other) => other !== id), id].slice(-MAX_PLAYERS);
  emit();
}

export function releasePlayer(id: string) {
  if (!active.includes(id)) return;
  active = active.filter((other) => other !== id);
  emit();
}

export const activePlayers = () => active;

export function usePlayerSlot(id: string) {
  const mounted = useSyncExternalStore(
    subscribe,
    () => active.includes(id),
    () => false,
  );
  const claim = useCallback(() => claimPlayer(id), [id]);
  const release = useCallback(() => releasePlayer(id), [id]);
  return { mounted, claim, release };
}
