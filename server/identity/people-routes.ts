// Admins manage people and read the audit log: /__console/people and /__console/audit (the access
// table in ./access.ts lets admins only through).
import { Hono, type Context } from 'hono';
import { ROLES } from '../../src/api/roles';
import { z } from '../../src/api/zod';
import { refuseUnstorableText } from '../http/request-text';
import { firstIssueMessage, validJson } from '../http/valid-input';
import { identityOf } from './request-identity';
import type { IdentityStore } from './store';
import { NO_STORE } from '../http/no-store';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

const fail = (c: Context, status: 400 | 403 | 404 | 409, msg: string) =>
  c.json({ code: status, msg }, status, NO_STORE);

const ROLE_RULE = 'role must be viewer, creator or admin';
const role = z.enum(ROLES, ROLE_RULE);
const roleBody = z.object({ role }, ROLE_RULE);
/** An invitation's role, and the e-mail address it is for if any ('' when none). */
const invitationBody = z.object(
  {
    role,
    email: z.optional(
      z.string('email is not an e-mail address').check(
        // Stryker disable next-line MethodExpression: `z` in its place throws at import, which Stryker's runner reads as no failing test
        z.trim(),
        z.toLowerCase(),
        // The string's own error above is the refusal's.
        z.refine((email) => email === '' || /^[^\s@]{1,64}@[^\s@]{1,190}$/.test(email)),
      ),
    ),
  },
  ROLE_RULE,
);

export function createPeopleRoutes(store: IdentityStore): Hono {
  const app = new Hono();

  // A page elsewhere cannot act through an admin's browser: the app's one cross-site rule
  // (server/http/same-site.ts) refuses it before these routes, and bodies are bounded there too.
  app.use('/__console/audit', refuseUnstorableText());
  app.get('/__console/people', async (c) => c.json({ people: await store.listPeople() }, 200, NO_STORE));

  const otherAdmins = async (id: string) =>
    (await store.listPeople()).filter((p) => p.role === 'admin' && p.id !== id).length;

  app.post('/__console/people/:id/role', validJson(roleBody, firstIssueMessage(ROLE_RULE)), async (c) => {
    const body = c.req.valid('json');
    const id = c.req.param('id');
    const before = await store.findPerson(id);
    if (!before || before.removed) return fail(c, 404, 'No such person');
    if (before.source === 'local-admin') return fail(c, 409, 'The local admin is always an admin');
    if (before.role === 'admin' && body.role !== 'admin' && (await otherAdmins(id)) === 0)
      return fail(c, 409, 'The team needs at least one admin: make someone else an admin first');
    const person = await store.setRole(id, body.role);
    await store.audit({
      actor: identityOf(c),
      action: 'role.change',
      target: before.name,
      detail: { userId: id, from: before.role, to: body.role },
    });
    return c.json({ person }, 200, NO_STORE);
  });

  app.delete('/__console/people/:id', async (c) => {
    const id = c.req.param('id');
    const before = await store.findPerson(id);
    if (!before || before.removed) return fail(c, 404, 'No such person');
    if (before.source === 'local-admin') return fail(c, 409, 'The local admin cannot be removed');
    if (before.role === 'admin' && (await otherAdmins(id)) === 0)
      return fail(c, 409, 'The team needs at least one admin: make someone else an admin first');
    await store.removePerson(id);
    await store.audit({
      actor: identityOf(c),
      action: 'person.remove',
      target: before.name,
      detail: { userId: id, role: before.role },
    });
    return c.json({ removed: id }, 200, NO_STORE);
  });

  app.get('/__console/invitations', async (c) =>
    c.json({ invitations: await store.listLinks() }, 200, NO_STORE),
  );

  /** A one-time link that makes a local account with the role given (7 days). */
  app.post('/__console/invitations', validJson(invitationBody, firstIssueMessage(ROLE_RULE)), async (c) => {
    const body = c.req.valid('json');
    const email = body.email ?? '';
    const token = await store.createLink({
      purpose: 'invite',
      role: body.role,
      email: email || null,
      createdBy: identityOf(c)?.userId ?? null,
      ttlMs: INVITATION_TTL_MS,
    });
    await store.audit({
      actor: identityOf(c),
      action: 'invite.create',
      target: email || null,
      detail: { role: body.role },
    });
    return c.json({ path: `/invite/${token}`, expiresAt: Date.now() + INVITATION_TTL_MS }, 201, NO_STORE);
  });

  app.delete('/__console/invitations/:id', async (c) => {
    if (!(await store.revokeLink(c.req.param('id')))) return fail(c, 404, 'No such invitation');
    await store.audit({ actor: identityOf(c), action: 'invite.revoke', target: null, detail: null });
    return c.json({ revoked: true }, 200, NO_STORE);
  });

  app.get('/__console/audit', async (c) => {
    const before = Number(c.req.query('before'));
    const limit = Number(c.req.query('limit'));
    const entries = await store.listAudit({
      action: c.req.query('action')?.slice(0, 60) || undefined,
      q: c.req.query('q')?.slice(0, 200) || undefined,
      before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
      limit: Number.isSafeInteger(limit) && limit > 0 ? limit : undefined,
    });
    return c.json({ entries }, 200, NO_STORE);
  });

  return app;
}
