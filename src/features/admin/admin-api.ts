// The People screen's calls to the console: people and roles, invitations and the audit log
// (server/identity/people-routes.ts), API tokens (server/identity/token-routes.ts), spending limits
// (server/limits), result storage (server/results/usage.ts), the follower's figures (server/follow)
// and webhooks (server/notify). The server refuses each to anyone without the role; a refusal is
// thrown with its words (src/api/console-fetch.ts) for the section to show beside itself.
import { CreatedToken, TokenList, type TokenView } from '@/api/api-tokens';
import { consoleData, consoleJson } from '@/api/console-fetch';
import type { LimitSetting } from '@/api/limits';
import type { Role } from '@/api/roles';

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
const one = (path: string, id: string, rest = '') => `${path}/${encodeURIComponent(id)}${rest}`;

export interface Person {
  id: string;
  source: string;
  name: string;
  email: string | null;
  role: Role;
  lastSignInAt: number | null;
}

export const listPeople = () => consoleJson<{ people: Person[] }>('/__console/people').then((b) => b.people);

export const setRole = (personId: string, role: Role) =>
  consoleJson(one('/__console/people', personId, '/role'), json('POST', { role }));

export const removePerson = (personId: string) =>
  consoleJson(one('/__console/people', personId), { method: 'DELETE' });

/** A one-time link that makes a local account: the path on this console's origin. */
export const createInvitation = (role: Role, email: string | undefined) =>
  consoleJson<{ path: string }>('/__console/invitations', json('POST', { role, email })).then((b) => b.path);

export interface AuditEntry {
  id: number;
  at: number;
  actorName: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

/** The audit log, narrowed to one action and to a name ('' for all). */
export function readAudit(action: string, q: string): Promise<AuditEntry[]> {
  const params = new URLSearchParams();
  if (action) params.set('action', action);
  if (q.trim()) params.set('q', q.trim());
  return consoleJson<{ entries: AuditEntry[] }>(`/__console/audit?${params}`).then((b) => b.entries);
}

/** Mine, or (`everyone`, admins) the team's: checked against the shared schema, as the server sends it. */
export async function listTokens(everyone: boolean): Promise<TokenView[]> {
  const body = await consoleJson<unknown>(everyone ? '/__console/tokens/all' : '/__console/tokens');
  return TokenList.parse(body).tokens;
}

/** The new token, in the only answer that ever carries it. */
export async function createToken(name: string, expiresInDays: number): Promise<CreatedToken> {
  return CreatedToken.parse(
    await consoleJson<unknown>('/__console/tokens', json('POST', { name, expiresInDays })),
  );
}

export const revokeToken = (tokenId: string) =>
  consoleJson(one('/__console/tokens', tokenId), { method: 'DELETE' });

export interface AllLimits {
  team: LimitSetting[];
  people: Record<string, LimitSetting[]>;
}

export const readAllLimits = () => consoleJson<AllLimits>('/__console/limits/all');

/** Sets every limit of the team, or of one person; `max: null` is no limit. */
export const saveLimits = (
  scope: 'team' | { userId: string },
  limits: { measure: LimitSetting['measure']; period: LimitSetting['period']; max: number | null }[],
) =>
  consoleJson(
    '/__console/limits',
    json('PUT', scope === 'team' ? { scope, limits } : { scope: 'person', userId: scope.userId, limits }),
  );

export interface StorageLine {
  files: number;
  bytes: number;
}

export interface StorageUsage {
  store: string;
  kept: StorageLine;
  byKind: (StorageLine & { kind: string })[];
  byPerson: (StorageLine & { creator: string | null })[];
  states: { queued: number; copying: number; kept: number; failed: number; expired: number };
}

export const readStorage = () => consoleData<StorageUsage>('/__console/storage');

export interface FollowFigures {
  following: number;
  ended: number;
  oldestCreatedAt: string | null;
  brakedUntil: string | null;
  lastError: {
    kind: string;
    httpStatus: number;
    code?: number;
    msg: string;
    taskId: string;
    at: string;
  } | null;
}

export const readFollowing = () => consoleData<FollowFigures>('/__console/follow');

export interface Webhook {
  id: string;
  scope: 'person' | 'team';
  name: string;
  url: string;
  events: ('finished' | 'failed')[];
}

export interface WebhookDelivery {
  state: string;
  last_status: number | null;
  last_error: string | null;
}

export const listWebhooks = () =>
  consoleData<{ webhooks: Webhook[] }>('/__console/webhooks').then((d) => d.webhooks);

/** The newest delivery first. */
export const webhookDeliveries = (webhookId: string) =>
  consoleData<{ deliveries: WebhookDelivery[] }>(one('/__console/webhooks', webhookId, '/deliveries')).then(
    (d) => d.deliveries,
  );

/** The new webhook's signing secret: shown once, never again. */
export const addWebhook = (fields: Pick<Webhook, 'name' | 'url' | 'scope'>) =>
  consoleData<{ id: string; secret: string }>('/__console/webhooks', json('POST', fields));

export const removeWebhook = (webhookId: string) =>
  consoleData(one('/__console/webhooks', webhookId), { method: 'DELETE' });
