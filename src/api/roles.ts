// The team's roles, one definition for the server that enforces them (server/identity/access.ts)
// and the browser that hides or explains what a role may not do.
export const ROLES = ['viewer', 'creator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, creator: 1, admin: 2 };

export function roleAtLeast(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[needed];
}

/** A person's role in the team (viewer, creator, admin), as a body, a setting or a session names it. */
export function isPersonRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export const ROLE_LABELS: Record<Role, string> = { viewer: 'Viewer', creator: 'Creator', admin: 'Admin' };

export const ROLE_SUMMARIES: Record<Role, string> = {
  viewer: "sees the team's tasks and results; creates nothing, spends nothing",
  creator: 'creates tasks, uploads files, re-runs tasks',
  admin: "also manages people and roles, the emulator's settings and the limits",
};

/** Why a control is unavailable to `role`, for the interface (the server says the same in its 403). */
export function needsRole(needed: Role, what: string): string {
  return `Only ${needed === 'admin' ? 'admins' : 'creators and admins'} can ${what}. Ask an admin for the ${ROLE_LABELS[needed].toLowerCase()} role.`;
}
