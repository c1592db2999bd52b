// Share links as the browser makes, lists and revokes them (server/shares/routes.ts).
import type { ShareSummary, ShareTarget } from '@/api/shares';

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => ({}))) as T & { msg?: string };
  if (!response.ok) throw new Error(body.msg ?? `The console answered HTTP ${response.status}`);
  return body;
}

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
