// Who "me" is on the team's record: the name typed on the sign-in page (APP_PASSWORD, kept in the
// signed session; the server records it as the creator and tells the browser in /__console/config),
// else this browser's display name (Settings → Your name). Both the Tasks screen's "Mine" and the
// first-visit name prompt read it here, so they cannot disagree with what the server records.
import { useSyncExternalStore } from 'react';
import { useConsoleInfo } from './console-info';
import { readDisplayName, subscribeDisplayName } from './display-name';

export interface MyName {
  name: string;
  /** The name comes from the sign-in and cannot be changed here. */
  fromSession: boolean;
}

export function useMyName(): MyName {
  const { data } = useConsoleInfo();
  const displayName = useSyncExternalStore(subscribeDisplayName, readDisplayName, () => '');
  if (data?.user) return { name: data.user, fromSession: true };
  return { name: displayName, fromSession: false };
}
