// Share links as the browser makes, lists and revokes them (server/shares/routes.ts).
import { consoleJson as call } from '@/api/console-fetch';
import type { ShareSummary, ShareTarget } from '@/api/shares';

export interface CreatedShare {
  id: string;
  url: string;
  expiresAt: number;
}

export const createShare = (target: ShareTarget, expiresInDays: number) =>
  call<CreatedShare>('/__console/shares', {
    method: 'POST',
    body: JSON.stringify({ ...target, expiresInDays }),
  });

/** The live links of one board or request (one's own; an admin's: everyone's), or every live one. */
export async function listShares(target?: ShareTarget): Promise<ShareSummary[]> {
  const query = target ? `?${new URLSearchParams(target as Record<string, string>)}` : '';
  const body = await call<{ data: { shares: ShareSummary[] } }>(`/__console/shares${query}`);
  return body.data.shares;
}

export const revokeShare = (id: string) =>
  call(`/__console/shares/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const shareDay = (ms: number) => new Date(ms).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** "Opened 3 times, last 28 Nov 2026" or "Not opened yet". */
export function openingsOf(share: ShareSummary): string {
  if (!share.openedCount) return 'Not opened yet';
  const times = share.openedCount === 1 ? 'once' : `${share.openedCount} times`;
  return `Opened ${times}${share.lastOpenedAt ? `, last ${shareDay(share.lastOpenedAt)}` : ''}`;
}
